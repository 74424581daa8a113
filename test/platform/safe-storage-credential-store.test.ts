// The safeStorage fallback file: ciphertext only, owner-only, written atomically; a corrupt file is moved aside with
// a notice and never overwritten; secrets that no longer decrypt are kept in a backup before being left out; data
// the key store asks to re-encrypt is re-encrypted; Linux basic_text is named as unprotected.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { SAFE_STORAGE_FILE, SafeStorageCredentialStore } from '../../electron/platform/safe-storage-credential-store.js';
import { cleanup, tempDir } from '../shared/support/harness.js';
import { testSafeStorage } from './support/safe-storage.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(cleanup));
const dir = (): string => {
  const d = tempDir('sb-safe-');
  dirs.push(d);
  return d;
};
const backups = (d: string): string[] => readdirSync(d).filter((f) => f.startsWith('credentials.enc.corrupt-'));

async function openStore(d: string, safe = testSafeStorage(), platform: NodeJS.Platform = 'linux') {
  const opened = await SafeStorageCredentialStore.open(d, safe, platform);
  if (!opened) throw new Error('not available');
  return opened;
}

describe('safeStorage credential store', () => {
  it('keeps ciphertext only, owner-only, and survives a restart', async () => {
    const d = dir();
    const safe = testSafeStorage();
    const { store, notices } = await openStore(d, safe);
    expect(notices).toEqual([]);
    await store.set('auth:bearer:a', 'CANARY-secret-1');
    await store.set('env:b:TOKEN', 'CANARY-secret-2');
    await store.delete('env:b:TOKEN');
    const file = join(d, SAFE_STORAGE_FILE);
    expect(readFileSync(file, 'utf8')).not.toContain('CANARY');
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = await openStore(d, safe);
    expect(await again.store.get('auth:bearer:a')).toBe('CANARY-secret-1');
    expect(await again.store.accounts()).toEqual(['auth:bearer:a']);
  });

  it('is not offered when encryption is unavailable', async () => {
    expect(await SafeStorageCredentialStore.open(dir(), testSafeStorage({ available: false }))).toBeNull();
  });

  it('moves a corrupt file aside with a notice and never writes over it', async () => {
    const d = dir();
    writeFileSync(join(d, SAFE_STORAGE_FILE), '{"version":1,"entries":{"a":"AAAA');
    const { store, notices } = await openStore(d);
    expect(notices).toEqual([expect.objectContaining({ id: 'credentials-corrupt', level: 'error' })]);
    const [backup] = backups(d);
    expect(notices[0]!.message).toContain(backup!);
    await store.set('x', 'new value');
    expect(readFileSync(join(d, backup!), 'utf8')).toBe('{"version":1,"entries":{"a":"AAAA');
  });

  it('keeps undecryptable secrets in a backup before leaving them out (the OS key changed)', async () => {
    const d = dir();
    const first = await openStore(d, testSafeStorage());
    await first.store.set('lost', 'old secret');
    const original = readFileSync(join(d, SAFE_STORAGE_FILE), 'utf8');
    const changed = testSafeStorage();
    const { store, notices } = await openStore(d, changed);
    expect(notices).toEqual([expect.objectContaining({ id: 'credentials-undecryptable', level: 'error' })]);
    expect(readFileSync(join(d, backups(d)[0]!), 'utf8')).toBe(original);
    expect(await store.accounts()).toEqual([]);
  });

  it('re-encrypts what the key store asks to', async () => {
    const d = dir();
    const oldKey = randomBytes(32);
    const before = await openStore(d, testSafeStorage({ key: oldKey }));
    await before.store.set('a', 'value-a');
    const rotated = testSafeStorage({ oldKey });
    const { store, notices } = await openStore(d, rotated);
    expect(notices).toEqual([]);
    expect(await store.get('a')).toBe('value-a');
    // Readable with the new key alone now.
    expect(await (await openStore(d, testSafeStorage({ key: rotated.key }))).store.get('a')).toBe('value-a');
  });

  it('says plainly when Linux has no OS key store (basic_text), and only there', async () => {
    const basic = testSafeStorage({ backend: 'basic_text' });
    expect((await openStore(dir(), basic, 'linux')).notices).toEqual([
      expect.objectContaining({
        id: 'credentials-unprotected',
        level: 'warning',
        message: expect.stringMatching(/not protected by an OS key/),
      }),
    ]);
    expect((await openStore(dir(), basic, 'darwin')).notices).toEqual([]);
  });

  it('reads the older flat file format', async () => {
    const d = dir();
    const safe = testSafeStorage();
    const cipher = (await safe.encryptStringAsync('legacy')).toString('base64');
    writeFileSync(join(d, SAFE_STORAGE_FILE), JSON.stringify({ old: cipher }));
    expect(await (await openStore(d, safe)).store.get('old')).toBe('legacy');
  });
});
