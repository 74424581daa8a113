// The server definitions and the rest of the settings, as loaded from and saved to the settings store.
import type { ServerConfig, Settings } from '../../../shared/config.js';
import type { AppNotice } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import type { SettingsStore } from '../ports.js';

/** The settings in memory, written through to the store. */
export class Definitions {
  readonly #store: SettingsStore;
  #settings: Settings;
  /** What loading reported (a file moved aside, a migration). */
  readonly loadNotices: readonly AppNotice[];

  constructor(store: SettingsStore) {
    this.#store = store;
    const loaded = store.load();
    this.#settings = loaded.settings;
    this.loadNotices = loaded.notices;
  }

  /** The data folder the settings live in. */
  get dir(): string {
    return this.#store.dir;
  }

  /** The current settings (read-only snapshot). */
  get settings(): Settings {
    return this.#settings;
  }

  /** The current definitions (read-only snapshot). */
  configs(): readonly ServerConfig[] {
    return this.#settings.servers;
  }

  /** One definition, or a not_found error. */
  config(id: string): ServerConfig {
    const found = this.#settings.servers.find((s) => s.id === id);
    if (!found) throw new AppError('not_found', `No server with id "${id}"`, { serverId: id });
    return found;
  }

  /** The ids in use. */
  ids(): Set<string> {
    return new Set(this.#settings.servers.map((s) => s.id));
  }

  /** Writes the next settings; they take effect only once written (storage_failed otherwise). */
  save(next: Settings): void {
    try {
      this.#store.save(next);
    } catch (err) {
      throw new AppError('storage_failed', `Settings could not be saved: ${(err as Error).message}`, { cause: err });
    }
    this.#settings = next;
  }
}
