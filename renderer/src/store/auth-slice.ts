import type { SliceCreator } from './types';

/** Auth state (filled in by the auth work). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AuthSlice {}

export const createAuthSlice: SliceCreator<AuthSlice> = () => ({});
