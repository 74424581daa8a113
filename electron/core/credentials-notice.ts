// The one start-up notice for secrets kept in memory (no OS keychain): where secrets live now, what will not survive
// a restart, and what to do after one. The shell that chose the store adds why the
// keychain could not be used; the core gives the same notice without a reason when it was handed a memory store.
import type { AppNotice } from '../../shared/contract.js';

/** Id of the memory-only credentials notice. */
export const MEMORY_CREDENTIALS_NOTICE = 'credentials-memory';

/** The notice, with the reason the keychain could not be used when it is known. */
export function memoryCredentialsNotice(why?: string): AppNotice {
  return {
    id: MEMORY_CREDENTIALS_NOTICE,
    level: 'warning',
    message:
      `Secrets are kept in memory only: no OS keychain is available${why ? ` (${why})` : ''}. ` +
      'Server secrets, sign-ins and gateway client tokens will not survive a restart: after one, enter secrets again, ' +
      'sign in again and issue gateway clients new tokens. Install and unlock a keychain (e.g. gnome-keyring) to keep them.',
  };
}
