import type { SliceCreator } from './types';

/** Calls state (filled in by the calls work). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface CallsSlice {}

export const createCallsSlice: SliceCreator<CallsSlice> = () => ({});
