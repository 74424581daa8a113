// Ports the core depends on; platform adapters implement them at the edge.
import type { Settings } from '../../shared/config.js';
import type { AppNotice } from '../../shared/contract.js';

/** Where credentials (tokens, client secrets, secret env values) are kept. */
export interface CredentialStore {
  /** Which backend holds the secrets. */
  readonly kind: 'keychain' | 'safeStorage' | 'memory';
  /** Whether secrets survive a restart. */
  readonly persistent: boolean;
  /** Reads one secret, or null when none is stored. */
  get(account: string): Promise<string | null>;
  /** Stores one secret, replacing any previous value. */
  set(account: string, value: string): Promise<void>;
  /** Deletes one secret; deleting a missing one is not an error. */
  delete(account: string): Promise<void>;
  /** Every account that holds a secret (used to move secrets between stores); absent when the store cannot list. */
  accounts?(): Promise<string[]>;
}

/** Result of loading the settings file. */
export interface LoadedSettings {
  /** The validated settings (defaults when the file was missing or moved aside). */
  settings: Settings;
  /** Notices for the user, e.g. that a corrupt file was moved aside. */
  notices: AppNotice[];
}

/** Where the settings file lives; writes are atomic and owner-only. */
export interface SettingsStore {
  /** Folder that holds the settings file. */
  readonly dir: string;
  /** Loads, validates and migrates the file; a bad file is moved aside, never dropped. */
  load(): LoadedSettings;
  /** Persists the whole settings object atomically. */
  save(settings: Settings): void;
}
