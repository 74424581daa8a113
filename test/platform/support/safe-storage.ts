// A stand-in for Electron's safeStorage (no Electron here): real AES-256-GCM with a key held in memory, the async
// API's shape, an optional older key whose ciphertext still decrypts but asks to be re-encrypted, and a backend name.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SafeStorageLike } from '../../../electron/platform/safe-storage-credential-store.js';

/** Options of the stand-in. */
export interface TestSafeStorageOptions {
  key?: Buffer;
  /** A previous key: its ciphertext decrypts with shouldReEncrypt. */
  oldKey?: Buffer;
  backend?: string;
  available?: boolean;
}

function seal(key: Buffer, plain: string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

function open(key: Buffer, sealed: Buffer): string {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
  decipher.setAuthTag(sealed.subarray(12, 28));
  return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
}

/** A safeStorage with a real cipher. */
export function testSafeStorage(opts: TestSafeStorageOptions = {}): SafeStorageLike & { key: Buffer } {
  const key = opts.key ?? randomBytes(32);
  return {
    key,
    isAsyncEncryptionAvailable: async () => opts.available ?? true,
    encryptStringAsync: async (plain) => seal(key, plain),
    decryptStringAsync: async (cipher) => {
      try {
        return { shouldReEncrypt: false, result: open(key, cipher) };
      } catch (err) {
        if (!opts.oldKey) throw err;
        return { shouldReEncrypt: true, result: open(opts.oldKey, cipher) };
      }
    },
    getSelectedStorageBackend: () => opts.backend ?? 'gnome_libsecret',
  };
}
