// Choosing the credential store: a keychain that fails says why (load vs no answer); the choice is recorded; a later
// launch with another store says so; secrets left in the fallback file while the keychain was away move into the
// keychain once it is back; secrets this shell cannot read are named as still being there.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CredentialStore } from '../../electron/core/ports.js';
import { chooseCredentialStore, CREDENTIAL_RECORD_FILE } from '../../electron/platform/credential-choice.js';
import type { KeychainOpen } from '../../electron/platform/keytar-credential-store.js';
import { MemoryCredentialStore } from '../../electron/platform/memory-credential-store.js';
import { SafeStorageCredentialStore } from '../../electron/platform/safe-storage-credential-store.js';
import { cleanup, tempDir } from '../shared/support/harness.js';
import { testSafeStorage } from './support/safe-storage.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(cleanup));
const dir = (): string => {
  const d = tempDir('sb-creds-');
  dirs.push(d);
  return d;
};

/** A keychain stand-in: memory that lists its accounts and calls itself a keychain. */
function keychain(): CredentialStore & { values: MemoryCredentialStore; names: Set<string> } {
  const values = new MemoryCredentialStore();
  const names = new Set<string>();
  return {
    kind: 'keychain',
    persistent: true,
    values,
    names,
    get: (a) => values.get(a),
    set: async (a, v) => {
      names.add(a);
      await values.set(a, v);
    },
    delete: async (a) => {
      names.delete(a);
      await values.delete(a);
    },
    accounts: async () => [...names],
  };
}
const up = (store: CredentialStore) => async (): Promise<KeychainOpen> => ({ ok: true, store });
const loadFailed = async (): Promise<KeychainOpen> => ({
  ok: false,
  stage: 'load',
  message: 'libsecret-1.so.0: cannot open shared object file',
});
const record = (d: string): unknown => JSON.parse(readFileSync(join(d, CREDENTIAL_RECORD_FILE), 'utf8'));

describe('credential store choice', () => {
  it('reports a keychain module that fails to load with its real error, then uses memory', async () => {
    const d = dir();
    const { store, notices } = await chooseCredentialStore({ dir: d, choice: 'auto', openKeychain: loadFailed });
    expect(store.kind).toBe('memory');
    expect(notices).toEqual([
      expect.objectContaining({
        id: 'credentials-memory',
        message: expect.stringContaining('could not be loaded: libsecret-1.so.0'),
      }),
    ]);
  });

  it('falls back to safeStorage, records it, and moves its secrets into the keychain once the keychain is back', async () => {
    const d = dir();
    const safe = testSafeStorage();
    const fallback = () => SafeStorageCredentialStore.open(d, safe, 'darwin');
    const first = await chooseCredentialStore({ dir: d, choice: 'auto', openKeychain: loadFailed, fallback });
    expect(first.store.kind).toBe('safeStorage');
    expect(record(d)).toMatchObject({ kind: 'safeStorage' });
    await first.store.set('auth:bearer:s1', 'CANARY-token');

    const kc = keychain();
    const second = await chooseCredentialStore({ dir: d, choice: 'auto', openKeychain: up(kc), fallback });
    expect(second.store).toBe(kc);
    expect(await kc.get('auth:bearer:s1')).toBe('CANARY-token');
    expect(await (await fallback())!.store.accounts!()).toEqual([]);
    expect(second.notices.map((n) => n.id)).toEqual(['credentials-migration', 'credentials-store-changed']);
    expect(record(d)).toMatchObject({ kind: 'keychain' });
  });

  it('in a shell that cannot read the fallback file, says the secrets are still there and keeps the record', async () => {
    const d = dir();
    const safe = testSafeStorage();
    const opened = await SafeStorageCredentialStore.open(d, safe, 'darwin');
    await opened!.store.set('auth:bearer:s1', 'CANARY-token');
    await chooseCredentialStore({
      dir: d,
      choice: 'auto',
      openKeychain: loadFailed,
      fallback: () => SafeStorageCredentialStore.open(d, safe, 'darwin'),
    });
    const headless = await chooseCredentialStore({ dir: d, choice: 'auto', openKeychain: up(keychain()) });
    expect(headless.notices).toEqual(expect.arrayContaining([expect.objectContaining({ id: 'credentials-elsewhere', level: 'warning' })]));
    expect(record(d)).toMatchObject({ kind: 'safeStorage' });
  });

  it('says so when the keychain used last time is gone, and keeps recording the keychain', async () => {
    const d = dir();
    await chooseCredentialStore({ dir: d, choice: 'auto', openKeychain: up(keychain()) });
    expect(record(d)).toMatchObject({ kind: 'keychain' });
    const later = await chooseCredentialStore({ dir: d, choice: 'auto', openKeychain: loadFailed });
    expect(later.store.kind).toBe('memory');
    expect(later.notices).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: 'credentials-store-changed', message: expect.stringMatching(/stay there/) })]),
    );
    expect(record(d)).toMatchObject({ kind: 'keychain' });
  });

  it('with the keychain back, a corrupt credentials file is moved aside and the person is told, not silently', async () => {
    const d = dir();
    writeFileSync(SafeStorageCredentialStore.fileIn(d), '{ not json');
    const kc = keychain();
    const { store, notices } = await chooseCredentialStore({
      dir: d,
      choice: 'auto',
      openKeychain: up(kc),
      fallback: () => SafeStorageCredentialStore.open(d, testSafeStorage(), 'darwin'),
    });
    expect(store).toBe(kc);
    expect(notices).toEqual(expect.arrayContaining([expect.objectContaining({ id: 'credentials-corrupt' })]));
    expect(readdirSync(d).some((f) => f.includes('corrupt'))).toBe(true);
  });
});
