// One start-up notice when secrets live in memory: it says where they live, that server secrets, sign-ins and gateway
// client tokens will not survive a restart, and (when the shell knows) why the keychain failed; never two notices.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chooseCredentialStore } from '../../electron/platform/credential-choice.js';
import { call, cleanup, makeHost, tempDir } from '../shared/support/harness.js';

let dir: string;
beforeEach(() => {
  dir = tempDir('sb-cred-notice-');
});
afterEach(() => cleanup(dir));

type Info = { notices: { id: string; level: string; message: string }[] };
const aboutSecrets = (info: Info) => info.notices.filter((n) => /keychain|secrets/i.test(n.message));

describe('the memory-only credentials notice', () => {
  it('is one notice naming what is lost, with the reason the keychain failed when the shell chose the store', async () => {
    const chosen = await chooseCredentialStore({
      dir,
      choice: 'auto',
      openKeychain: async () => ({ ok: false, stage: 'probe', message: 'org.freedesktop.secrets was not provided by any .service files' }),
    });
    expect(chosen.store.persistent).toBe(false);
    const h = makeHost(dir, { ports: { notices: chosen.notices } });
    try {
      const notices = aboutSecrets(await call<Info>(h.dispatch, 'app.info', {}));
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatchObject({ id: 'credentials-memory', level: 'warning' });
      expect(notices[0]!.message).toContain('Secrets are kept in memory only');
      expect(notices[0]!.message).toContain('org.freedesktop.secrets was not provided');
      expect(notices[0]!.message).toContain('gateway client tokens will not survive a restart');
    } finally {
      await h.host.shutdown();
    }
  });

  it('is given by the core itself when it is handed a memory store with no notice', async () => {
    const h = makeHost(dir);
    try {
      const notices = aboutSecrets(await call<Info>(h.dispatch, 'app.info', {}));
      expect(notices.map((n) => n.id)).toEqual(['credentials-memory']);
      expect(notices[0]!.message).toContain('gateway client tokens');
    } finally {
      await h.host.shutdown();
    }
  });
});
