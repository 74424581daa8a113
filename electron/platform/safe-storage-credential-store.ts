// Fallback CredentialStore for the Electron app when no keychain answers: Electron safeStorage ciphertext (the async
// API) in an owner-only file written through the core's atomic JSON writer. Nothing is ever lost silently: a corrupt
// file is moved aside with a notice; ciphertext that no longer decrypts (the OS key changed) is kept in a backup of
// the file, named in the notice, before it is left out; data the key store asks to re-encrypt is re-encrypted. On
// Linux, the `basic_text` backend (no Secret Service or KWallet) is said plainly: those secrets are not protected by
// an OS key.
import { join } from 'node:path';
import type { AppNotice } from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';
import { isObject } from '../core/json.js';
import type { CredentialStore } from '../core/ports.js';
import { copyAside, JsonFileWriter, readJsonFile } from '../core/storage/json-file.js';

/** The file's name in the data folder. */
export const SAFE_STORAGE_FILE = 'credentials.enc.json';

/** The part of Electron's safeStorage this store uses (the async API). */
export interface SafeStorageLike {
  isAsyncEncryptionAvailable(): Promise<boolean>;
  encryptStringAsync(plain: string): Promise<Buffer>;
  decryptStringAsync(cipher: Buffer): Promise<{ shouldReEncrypt: boolean; result: string }>;
  /** Linux only: which OS key store backs the encryption. */
  getSelectedStorageBackend?(): string;
}

/** An opened store and what the person should know about it. */
export interface SafeStorageOpen {
  store: SafeStorageCredentialStore;
  notices: AppNotice[];
}

/** Secrets encrypted by the platform key store, persisted as ciphertext only. */
export class SafeStorageCredentialStore implements CredentialStore {
  readonly kind = 'safeStorage' as const;
  readonly persistent = true;
  readonly #safe: SafeStorageLike;
  readonly #cipher: Map<string, string>;
  readonly #writer: JsonFileWriter;

  private constructor(file: string, safe: SafeStorageLike, cipher: Map<string, string>) {
    this.#safe = safe;
    this.#cipher = cipher;
    this.#writer = new JsonFileWriter(file, { delayMs: 0 });
  }

  /** The file that holds the ciphertext in a data folder. */
  static fileIn(dir: string): string {
    return join(dir, SAFE_STORAGE_FILE);
  }

  /**
   * Opens the store in `dir` when encryption is available (else null): reads the file, checks that every secret
   * still decrypts (keeping a backup before leaving out any that does not), and re-encrypts what the key store asks.
   */
  static async open(dir: string, safe: SafeStorageLike, platform: NodeJS.Platform = process.platform): Promise<SafeStorageOpen | null> {
    if (!(await safe.isAsyncEncryptionAvailable())) return null;
    const file = SafeStorageCredentialStore.fileIn(dir);
    const notices: AppNotice[] = [];
    if (platform === 'linux' && safe.getSelectedStorageBackend?.() === 'basic_text') {
      notices.push({
        id: 'credentials-unprotected',
        level: 'warning',
        message:
          'No OS keychain is available (no Secret Service or KWallet): secrets are stored encrypted with a key kept on this machine, not protected by an OS key. Install and unlock a keyring (e.g. gnome-keyring) to protect them.',
      });
    }
    let read: ReturnType<typeof readJsonFile<Map<string, string>>>;
    try {
      read = readJsonFile(file, parseCipherFile);
    } catch (err) {
      throw new AppError('storage_failed', `The encrypted credentials file ${file} could not be read: ${(err as Error).message}`, {
        cause: err,
      });
    }
    if (read.kind === 'quarantined') {
      notices.push({
        id: 'credentials-corrupt',
        level: 'error',
        message: `The encrypted credentials file could not be read (${read.reason}); it was moved aside to ${read.backup}. Secrets and sign-ins stored there need to be entered again.`,
      });
    }
    const cipher = read.kind === 'ok' ? read.value : new Map<string, string>();
    const store = new SafeStorageCredentialStore(file, safe, cipher);
    const undecryptable: string[] = [];
    let reEncrypted = 0;
    for (const [account, value] of [...cipher]) {
      try {
        const plain = await safe.decryptStringAsync(Buffer.from(value, 'base64'));
        if (plain.shouldReEncrypt) {
          cipher.set(account, (await safe.encryptStringAsync(plain.result)).toString('base64'));
          reEncrypted += 1;
        }
      } catch {
        undecryptable.push(account);
      }
    }
    if (undecryptable.length > 0) {
      const backup = copyAside(file);
      for (const account of undecryptable) cipher.delete(account);
      notices.push({
        id: 'credentials-undecryptable',
        level: 'error',
        message: `${undecryptable.length} stored secret(s) could not be decrypted (the OS key changed?). The file as it was is kept as ${backup}; those secrets need to be entered again.`,
      });
    }
    if (undecryptable.length > 0 || reEncrypted > 0) await store.#persist();
    return { store, notices };
  }

  async get(account: string): Promise<string | null> {
    const value = this.#cipher.get(account);
    if (value === undefined) return null;
    try {
      return (await this.#safe.decryptStringAsync(Buffer.from(value, 'base64'))).result;
    } catch {
      return null;
    }
  }

  async set(account: string, value: string): Promise<void> {
    this.#cipher.set(account, (await this.#safe.encryptStringAsync(value)).toString('base64'));
    await this.#persist();
  }

  async delete(account: string): Promise<void> {
    if (this.#cipher.delete(account)) await this.#persist();
  }

  async accounts(): Promise<string[]> {
    return [...this.#cipher.keys()];
  }

  /** Writes the ciphertext map now; resolves once it is on disk. */
  async #persist(): Promise<void> {
    const snapshot = Object.fromEntries(this.#cipher);
    this.#writer.schedule(() => ({ version: 1, entries: snapshot }));
    try {
      await this.#writer.flush();
    } catch (err) {
      throw new AppError('storage_failed', `Secrets could not be saved: ${(err as Error).message}`, { cause: err });
    }
  }
}

/** Accepts `{ version: 1, entries: { account: base64 } }` and the older flat `{ account: base64 }`. */
function parseCipherFile(raw: unknown): Map<string, string> {
  if (!isObject(raw)) throw new Error('the file is not a JSON object');
  const entries = raw['version'] === 1 && isObject(raw['entries']) ? raw['entries'] : raw;
  const out = new Map<string, string>();
  for (const [account, value] of Object.entries(entries)) {
    if (typeof value !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(value))
      throw new Error(`the entry for ${account.slice(0, 80)} is not ciphertext`);
    out.set(account, value);
  }
  return out;
}
