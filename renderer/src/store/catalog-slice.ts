import type { SliceCreator } from './types';

/** Catalog state (filled in by the catalog work). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface CatalogSlice {}

export const createCatalogSlice: SliceCreator<CatalogSlice> = () => ({});
