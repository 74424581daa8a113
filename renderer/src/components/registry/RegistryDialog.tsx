// The registry's dialogs, by dialog state: install an entry, paste a link or definition, manage sources, update.
import type { DialogState } from '../../store/ui-slice';
import { InstallDialog } from './InstallDialog';
import { InstallPasteDialog } from './InstallPasteDialog';
import { SourcesDialog } from './SourcesDialog';
import { UpdateDialog } from './UpdateDialog';

/** Dialog states the registry owns. */
export type RegistryDialogState = Extract<DialogState, { kind: 'install' | 'installPaste' | 'registrySources' | 'registryUpdate' }>;

/** Renders the registry dialog for a dialog state. */
export function RegistryDialog({ dialog }: { dialog: RegistryDialogState }) {
  switch (dialog.kind) {
    case 'install':
      return <InstallDialog target={dialog.target} title={dialog.title} />;
    case 'installPaste':
      return <InstallPasteDialog {...(dialog.text !== undefined ? { text: dialog.text } : {})} />;
    case 'registrySources':
      return <SourcesDialog />;
    case 'registryUpdate':
      return <UpdateDialog id={dialog.id} />;
  }
}
