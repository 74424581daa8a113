import type { SliceCreator, Store } from './types';

/** Which dialog is open. */
export type DialogState =
  | { kind: 'none' }
  | { kind: 'addServer' }
  | { kind: 'editServer'; id: string }
  | { kind: 'removeServer'; id: string }
  | { kind: 'import' }
  | { kind: 'export' };

/** Top-level views. */
export type View = 'servers' | 'catalog' | 'history';
/** Tabs of the server page. */
export type ServerTab = 'overview' | 'tools' | 'resources' | 'prompts' | 'auth';

/** UI-only state. */
export interface UiSlice {
  view: View;
  serverTab: ServerTab;
  setView: (view: View) => void;
  setServerTab: (tab: ServerTab) => void;
  dialog: DialogState;
  openDialog: (dialog: DialogState) => void;
  closeDialog: () => void;
}

export const createUiSlice: SliceCreator<UiSlice> = (set) => ({
  view: 'servers',
  serverTab: 'overview',
  setView: (view) => set({ view }),
  setServerTab: (serverTab) => set({ serverTab }),
  dialog: { kind: 'none' },
  openDialog: (dialog) => set({ dialog }),
  closeDialog: () => set({ dialog: { kind: 'none' } }),
});

/** The open dialog. */
export const selectDialog = (s: Store): DialogState => s.dialog;
