import type { SliceCreator, Store } from './types';

/** Which dialog is open. */
export type DialogState =
  | { kind: 'none' }
  | { kind: 'addServer' }
  | { kind: 'editServer'; id: string }
  | { kind: 'removeServer'; id: string }
  | { kind: 'import' }
  | { kind: 'export' };

/** UI-only state. */
export interface UiSlice {
  dialog: DialogState;
  openDialog: (dialog: DialogState) => void;
  closeDialog: () => void;
}

export const createUiSlice: SliceCreator<UiSlice> = (set) => ({
  dialog: { kind: 'none' },
  openDialog: (dialog) => set({ dialog }),
  closeDialog: () => set({ dialog: { kind: 'none' } }),
});

/** The open dialog. */
export const selectDialog = (s: Store): DialogState => s.dialog;
