import { create } from 'zustand';
import { createAppSlice } from './app-slice';
import { createServersSlice } from './servers-slice';
import type { Store } from './types';
import { createUiSlice } from './ui-slice';

/** The renderer's single store. */
export const useStore = create<Store>()((...a) => ({
  ...createAppSlice(...a),
  ...createServersSlice(...a),
  ...createUiSlice(...a),
}));

export type { Store };
