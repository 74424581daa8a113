import type { StateCreator } from 'zustand';
import type { AppSlice } from './app-slice';
import type { ServersSlice } from './servers-slice';
import type { UiSlice } from './ui-slice';

/** The whole store: one object made of slices. */
export type Store = AppSlice & ServersSlice & UiSlice;
/** A slice creator with access to the whole store. */
export type SliceCreator<T> = StateCreator<Store, [], [], T>;
