// What each grant's field group receives: the client form being edited and what the core already stores.
import type { ClientSettingsInput, ClientSettingsView } from '../../../../shared/domains/auth';

/** Props of one grant's fields in the client settings form. */
export interface GrantFieldsProps {
  /** The client settings being edited. */
  client: ClientSettingsInput;
  /** Replaces the edited settings. */
  onChange: (next: ClientSettingsInput) => void;
  /** The stored client (which secrets exist), when there is one. */
  status: ClientSettingsView | undefined;
}

/** A secret field's placeholder: a stored secret stays when the field is left empty. */
export const keptPlaceholder = (stored: boolean | undefined): string | undefined => (stored ? 'stored; leave empty to keep' : undefined);
