// The keychain store (@github/keytar) against a real Secret Service. CI runs the tests inside `dbus-run-session` with gnome-keyring unlocked;
// locally: dbus-run-session -- sh -c 'echo -n pw | gnome-keyring-daemon --unlock --components=secrets; npx vitest run test/platform/keytar-credential-store.test.ts'
// Without a reachable Secret Service every test here is skipped with that reason.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthCredentials } from '../../electron/core/auth/credentials.js';
import type { CredentialStore } from '../../electron/core/ports.js';
import { KeytarCredentialStore } from '../../electron/platform/keytar-credential-store.js';

const service = `Switchboard-test-${randomBytes(4).toString('hex')}`;
let store: CredentialStore | null = null;
const SKIP = 'no Secret Service is reachable (run inside dbus-run-session with gnome-keyring unlocked)';

beforeAll(async () => {
  const opened = await KeytarCredentialStore.open(service, 3000);
  store = opened.ok ? opened.store : null;
});

afterAll(async () => {
  if (store === null) return;
  for (const account of ['plain', 'auth:bearer:s1', 'auth:oauth-index:s1', 'env:weather:KEY']) await store.delete(account);
});

/** libsecret's command-line tool, when installed (it plants items the way the archived keytar wrote them). */
const secretTool = spawnSync('secret-tool', ['--version']).error === undefined;

describe('keytar credential store (real Secret Service)', () => {
  it('stores, replaces, reads and deletes a secret', async (ctx) => {
    if (store === null) return ctx.skip(SKIP);
    expect(store.kind).toBe('keychain');
    expect(store.persistent).toBe(true);
    expect(await store.get('plain')).toBeNull();
    await store.set('plain', 'CANARY_one');
    await store.set('plain', 'CANARY_two');
    expect(await store.get('plain')).toBe('CANARY_two');
    expect(await store.accounts?.()).toContain('plain');
    await store.delete('plain');
    expect(await store.get('plain')).toBeNull();
    await store.delete('plain');
  });

  it('keeps bearer tokens and grants per server through AuthCredentials', async (ctx) => {
    if (store === null) return ctx.skip(SKIP);
    const creds = new AuthCredentials(store);
    await creds.setBearer('s1', 'CANARY_bearer');
    expect(await creds.bearer('s1')).toBe('CANARY_bearer');
    await creds.saveGrant('s1', {
      v: 1,
      serverUrl: 'https://mcp.example/mcp',
      issuer: 'https://as.example',
      authorizationServerUrl: 'https://as.example',
      client: { client_id: 'c' },
      tokens: { access_token: 'CANARY_access', token_type: 'Bearer', refresh_token: 'CANARY_refresh' },
      obtainedAt: Date.now(),
      grant: 'authorization_code',
    });
    const reopened = await KeytarCredentialStore.open(service);
    if (!reopened.ok) throw new Error(reopened.message);
    const again = new AuthCredentials(reopened.store);
    expect((await again.grant('s1', 'https://mcp.example/mcp'))?.tokens.refresh_token).toBe('CANARY_refresh');
    expect(await again.grant('s1', 'https://other.example/mcp')).toBeUndefined();
    await again.deleteAll('s1');
    expect(await creds.bearer('s1')).toBeNull();
    expect(await creds.grant('s1', 'https://mcp.example/mcp')).toBeUndefined();
  });
});

describe('secrets stored by the archived keytar', () => {
  it('are read after the switch: same Secret Service attributes (service, account), same schema', async (ctx) => {
    if (store === null) return ctx.skip(SKIP);
    if (!secretTool) return ctx.skip('secret-tool (libsecret-tools) is not installed');
    // keytar 7.9 stored each secret as an item of libsecret's generic schema with exactly these attributes and label
    // (seen with secret-tool on an item keytar 7.9 wrote).
    execFileSync(
      'secret-tool',
      [
        'store',
        '--label',
        `${service}/env:weather:KEY`,
        'xdg:schema',
        'org.freedesktop.Secret.Generic',
        'service',
        service,
        'account',
        'env:weather:KEY',
      ],
      { input: 'CANARY_planted_by_old_keytar' },
    );
    const reopened = await KeytarCredentialStore.open(service);
    if (!reopened.ok) throw new Error(reopened.message);
    expect(await reopened.store.get('env:weather:KEY')).toBe('CANARY_planted_by_old_keytar');
    expect(await reopened.store.accounts?.()).toContain('env:weather:KEY');
    // And what the new module writes is found under the same attributes, so going back a version loses nothing either.
    await reopened.store.set('env:weather:KEY', 'CANARY_rewritten');
    const found = execFileSync('secret-tool', ['lookup', 'service', service, 'account', 'env:weather:KEY'], { encoding: 'utf8' });
    expect(found).toBe('CANARY_rewritten');
    await reopened.store.delete('env:weather:KEY');
    expect(await reopened.store.get('env:weather:KEY')).toBeNull();
  });
});

describe('opening the keychain', () => {
  it('reports a keytar that cannot be loaded with its real error, not as "no keychain"', async () => {
    const opened = await KeytarCredentialStore.open(service, 3000, () => createRequire(import.meta.url)('./no-such-native-module.node'));
    expect(opened).toMatchObject({ ok: false, stage: 'load', message: expect.stringContaining('no-such-native-module.node') });
  });

  it('reports a keychain that does not answer as a probe failure', async () => {
    const silent = {
      findCredentials: () => new Promise<never>(() => undefined),
      getPassword: async () => null,
      setPassword: async () => undefined,
      deletePassword: async () => false,
    };
    expect(await KeytarCredentialStore.open(service, 50, () => silent)).toEqual({
      ok: false,
      stage: 'probe',
      message: 'the keychain did not answer within 0.05 s',
    });
  });
});
