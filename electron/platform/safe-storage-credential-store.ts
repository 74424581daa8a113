// Fallback CredentialStore for the Electron app when no keychain answers: Electron safeStorage
// ciphertext in an owner-only file. Ciphertext that fails to decrypt reads as "no secret".
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CredentialStore } from '../core/ports.js';

/** The part of Electron's safeStorage this store uses. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(cipher: Buffer): string;
}

/** Secrets encrypted by the platform key store, persisted as ciphertext only. */
export class SafeStorageCredentialStore implements CredentialStore {
  readonly kind = 'safeStorage' as const;
  readonly persistent = true;
  readonly #file: string;
  readonly #safe: SafeStorageLike;

  constructor(dir: string, safe: SafeStorageLike) {
    this.#file = join(dir, 'credentials.enc.json');
    this.#safe = safe;
  }

  /** A store when encryption is available, else null. */
  static open(dir: string, safe: SafeStorageLike): SafeStorageCredentialStore | null {
    return safe.isEncryptionAvailable() ? new SafeStorageCredentialStore(dir, safe) : null;
  }

  #read(): Record<string, string> {
    if (!existsSync(this.#file)) return {};
    try {
      const parsed: unknown = JSON.parse(readFileSync(this.#file, 'utf8'));
      return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, string>) : {};
    } catch {
      return {};
    }
  }

  #write(all: Record<string, string>): void {
    const tmp = `${this.#file}.tmp`;
    writeFileSync(tmp, JSON.stringify(all), { mode: 0o600 });
    renameSync(tmp, this.#file);
  }

  async get(account: string): Promise<string | null> {
    const cipher = this.#read()[account];
    if (cipher === undefined) return null;
    try {
      return this.#safe.decryptString(Buffer.from(cipher, 'base64'));
    } catch {
      return null;
    }
  }

  async set(account: string, value: string): Promise<void> {
    this.#write({ ...this.#read(), [account]: this.#safe.encryptString(value).toString('base64') });
  }

  async delete(account: string): Promise<void> {
    const all = this.#read();
    delete all[account];
    this.#write(all);
  }
}
