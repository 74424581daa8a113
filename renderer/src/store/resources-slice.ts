import type { SliceCreator } from './types';

/** Resources state (filled in by the resources work). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ResourcesSlice {}

export const createResourcesSlice: SliceCreator<ResourcesSlice> = () => ({});
