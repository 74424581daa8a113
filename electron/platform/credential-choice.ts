// Which credential store holds the secrets: the OS keychain first, the shell's fallback (Electron safeStorage)
// second, memory last. The choice is recorded in the data folder, so a later launch that ends up with another
// store says so; secrets left in the fallback file while the keychain was unavailable are moved into the keychain
// once it is back, instead of being stranded; and secrets this shell cannot read are named as still being there.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AppNotice } from '../../shared/contract.js';
import { memoryCredentialsNotice } from '../core/credentials-notice.js';
import { isObject } from '../core/json.js';
import type { CredentialStore } from '../core/ports.js';
import { readJsonFile, writeJsonAtomic } from '../core/storage/json-file.js';
import { KeytarCredentialStore, type KeychainOpen } from './keytar-credential-store.js';
import { MemoryCredentialStore } from './memory-credential-store.js';
import { SafeStorageCredentialStore } from './safe-storage-credential-store.js';

/** The record of the last store used, in the data folder. */
export const CREDENTIAL_RECORD_FILE = 'credential-store.json';

/** A fallback store and its notices (Electron: safeStorage), or null when there is none. */
export type FallbackOpen = { store: CredentialStore; notices: AppNotice[] } | null;

/** How the credential store is chosen. */
export interface CredentialChoiceOptions {
  /** The data folder (holds the record and the fallback file). */
  dir: string;
  /** 'memory' skips the keychain (tests); 'auto' tries the keychain first; a store is used as given. */
  choice: 'auto' | 'memory' | CredentialStore;
  /** Opens the keychain (default: keytar). */
  openKeychain?: () => Promise<KeychainOpen>;
  /** Opens the shell's fallback store (Electron: safeStorage); absent in headless mode. */
  fallback?: () => Promise<FallbackOpen>;
  /** The store used when secrets can only be kept in memory (default: this process's memory). */
  memory?: () => CredentialStore;
}

/** The chosen store and what the person should know. */
export interface CredentialChoice {
  store: CredentialStore;
  notices: AppNotice[];
}

const NAMES: Record<CredentialStore['kind'], string> = {
  keychain: 'the OS keychain',
  safeStorage: 'the encrypted credentials file',
  memory: 'memory only',
};

/** Picks the store, migrates stranded secrets and records the choice. */
export async function chooseCredentialStore(opts: CredentialChoiceOptions): Promise<CredentialChoice> {
  if (typeof opts.choice === 'object') return { store: opts.choice, notices: [] };
  const inMemory = (): CredentialStore => opts.memory?.() ?? new MemoryCredentialStore();
  if (opts.choice === 'memory') return { store: inMemory(), notices: [] };

  const notices: AppNotice[] = [];
  const keychain = await (opts.openKeychain ?? (() => KeytarCredentialStore.open()))();
  let fallback: FallbackOpen | undefined;
  const openFallback = async (): Promise<FallbackOpen> => (fallback ??= (await opts.fallback?.()) ?? null);

  let store: CredentialStore;
  if (keychain.ok) {
    store = keychain.store;
  } else {
    const why =
      keychain.stage === 'load'
        ? `the keychain module could not be loaded: ${keychain.message}`
        : `no keychain service answered: ${keychain.message}`;
    const alt = await openFallback();
    if (alt) {
      store = alt.store;
      notices.push(...alt.notices, {
        id: 'credentials-fallback',
        level: 'info',
        message: `The OS keychain is unavailable (${why}); secrets are encrypted with the platform key store instead.`,
      });
    } else {
      store = inMemory();
      notices.push(memoryCredentialsNotice(why));
    }
  }

  const recordFile = join(opts.dir, CREDENTIAL_RECORD_FILE);
  const recorded = readRecord(recordFile);
  const fileStore = SafeStorageCredentialStore.fileIn(opts.dir);

  // Secrets written to the fallback file while the keychain was away belong in the keychain now.
  let stranded = false;
  if (store.kind === 'keychain' && existsSync(fileStore)) {
    const alt = await openFallback();
    // What opening the file found (moved aside as corrupt, secrets it cannot decrypt) is the person's to know even
    // though the keychain is in use; that the file itself is weakly protected is not, since new secrets go elsewhere.
    notices.push(...(alt?.notices.filter((n) => n.id !== 'credentials-unprotected') ?? []));
    if (alt?.store.accounts) {
      const moved = await moveSecrets(alt.store, store);
      if (moved.failed.length > 0) {
        stranded = true;
        notices.push({
          id: 'credentials-migration',
          level: 'error',
          message: `${moved.failed.length} secret(s) could not be moved from the encrypted credentials file to the OS keychain; they stay in the file and the move is tried again on the next start.`,
        });
      } else if (moved.count > 0) {
        notices.push({
          id: 'credentials-migration',
          level: 'info',
          message: `Moved ${moved.count} secret(s) from the encrypted credentials file to the OS keychain.`,
        });
      }
    } else {
      stranded = true;
      notices.push({
        id: 'credentials-elsewhere',
        level: 'warning',
        message: `Some secrets are stored in the encrypted credentials file (${fileStore}), which only the desktop app can read. They are still there; open the desktop app once to move them to the OS keychain.`,
      });
    }
  }
  if (recorded !== undefined && recorded !== store.kind) {
    notices.push({
      id: 'credentials-store-changed',
      level: recorded === 'keychain' ? 'warning' : 'info',
      message:
        recorded === 'keychain'
          ? `Secrets were kept in the OS keychain until now; they stay there and are used again once it is available. Meanwhile new secrets go to ${NAMES[store.kind]}.`
          : `Secrets were kept in ${NAMES[recorded]} last time; now they are kept in ${NAMES[store.kind]}.`,
    });
  }
  if (store.persistent && !stranded && recorded !== store.kind && !(recorded === 'keychain' && store.kind !== 'keychain')) {
    await writeJsonAtomic(recordFile, { kind: store.kind, at: new Date().toISOString() }).catch(() => undefined);
  }
  return { store, notices };
}

/** Copies every secret of `from` into `to`, checks each, then deletes it from `from`. */
export async function moveSecrets(from: CredentialStore, to: CredentialStore): Promise<{ count: number; failed: string[] }> {
  const failed: string[] = [];
  let count = 0;
  for (const account of (await from.accounts?.()) ?? []) {
    try {
      const value = await from.get(account);
      if (value === null) continue;
      await to.set(account, value);
      if ((await to.get(account)) !== value) throw new Error('the value read back differs');
      await from.delete(account);
      count += 1;
    } catch {
      failed.push(account);
    }
  }
  return { count, failed };
}

function readRecord(file: string): CredentialStore['kind'] | undefined {
  try {
    const read = readJsonFile(file, (raw) => {
      const kind = isObject(raw) ? raw['kind'] : undefined;
      if (kind !== 'keychain' && kind !== 'safeStorage' && kind !== 'memory') throw new Error('unknown credential store');
      return kind;
    });
    return read.kind === 'ok' ? read.value : undefined;
  } catch {
    return undefined;
  }
}
