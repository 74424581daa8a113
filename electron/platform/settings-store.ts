// The settings file (config.json in the data folder), read and written through conf — the base of electron-store,
// which the desktop app passes in (electron-settings-store.ts) — on one file format: indented JSON, a UTF-8 BOM
// accepted. conf resolves the file, and writes it atomically (temp file in the same folder, fsync, rename) with mode
// 0600; it is used without schema, watch or defaults, and `clearInvalidConfig: false`, so it never empties a file it
// cannot read: this module decides what happens then.
//
// Loading never loses data: a file that cannot be used at all (not JSON, empty, not an object, newer schema) is
// moved aside byte for byte; a file with some bad parts (one invalid server, an unknown key, a bad value) keeps every
// good part, the original is moved aside verbatim as the backup, and the notice lists what was left out and why.
// Temp files left by an interrupted write are removed at start.
import { chmodSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import Conf, { type Options as ConfOptions } from 'conf';
import { defaultSettings, type Settings } from '../../shared/config.js';
import type { AppNotice } from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';
import { salvageSettings } from '../core/settings/migrate.js';
import type { LoadedSettings, SettingsStore } from '../core/ports.js';
import { copyAside, moveAside, removeLeftoverTemps } from '../core/storage/json-file.js';

/** Name of the settings file (without .json). */
export const SETTINGS_NAME = 'config';

/** Most parts named in a notice; the rest are counted. */
const NOTICE_PARTS = 10;

/** The settings document as conf holds it: the file's top-level object. */
export type SettingsDocument = Record<string, unknown>;

/** Builds the conf instance over the file (the desktop app passes electron-store, a conf subclass). */
export type ConfFactory = (options: ConfOptions<SettingsDocument>) => Conf<SettingsDocument>;

/** Options of the settings store. */
export interface SettingsStoreOptions {
  /** The clock used to name backups (tests fix it). */
  now?: () => Date;
  /** Which conf to use (default: conf itself). */
  conf?: ConfFactory;
}

/** The conf options every Switchboard settings file is opened with: one format in both shells. */
export function settingsConfOptions(dir: string): ConfOptions<SettingsDocument> {
  return {
    cwd: dir,
    configName: SETTINGS_NAME,
    fileExtension: 'json',
    configFileMode: 0o600,
    clearInvalidConfig: false,
    accessPropertiesByDotNotation: false,
    watch: false,
    serialize: serializeSettings,
    deserialize: parseSettingsText,
  };
}

/** Creates the SettingsStore of the data folder `dir`. */
export function createSettingsStore(dir: string, opts: SettingsStoreOptions = {}): SettingsStore {
  const file = join(dir, `${SETTINGS_NAME}.json`);
  const now = opts.now ?? (() => new Date());
  const makeConf = opts.conf ?? ((o: ConfOptions<SettingsDocument>) => new Conf<SettingsDocument>(o));
  let conf: Conf<SettingsDocument> | undefined;

  /** conf over the file; it reads the file when built, so a file it cannot parse throws here. */
  const open = (): Conf<SettingsDocument> => (conf ??= makeConf(settingsConfOptions(dir)));

  /** The file's document through conf, or the reason it cannot be used (a read error is not such a reason). */
  const read = (): { doc: SettingsDocument } | { unusable: string } => {
    try {
      const c = open();
      return { doc: { ...c.store } };
    } catch (err) {
      if (err instanceof AppError && err.code === 'config_invalid') return { unusable: err.message };
      throw new AppError('storage_failed', `The settings file could not be read: ${(err as Error).message}`, { cause: err });
    }
  };

  return {
    dir,
    load(): LoadedSettings {
      removeLeftoverTemps(file);
      if (!existsSync(file)) return { settings: defaultSettings(), notices: [] };
      let salvaged: ReturnType<typeof salvageSettings>;
      try {
        const got = read();
        if ('unusable' in got) throw new AppError('config_invalid', got.unusable);
        salvaged = salvageSettings(got.doc);
      } catch (err) {
        if (err instanceof AppError && err.code === 'storage_failed') throw err;
        const reason = err instanceof AppError ? err.message : 'The settings file could not be read';
        const backup = moveAside(file, now());
        const notice: AppNotice = {
          id: 'settings-corrupt',
          level: 'error',
          message: `${reason}. It was moved aside to ${backup} and Switchboard started with default settings.`,
        };
        return { settings: defaultSettings(), notices: [notice] };
      }
      if (salvaged.dropped.length === 0) {
        if (process.platform !== 'win32') chmodSync(file, 0o600);
        return { settings: salvaged.settings, notices: [] };
      }
      const backup = copyAside(file, now());
      write(salvaged.settings);
      const parts = salvaged.dropped.slice(0, NOTICE_PARTS).map((d) => `${d.what}: ${d.reason}`);
      const more = salvaged.dropped.length - parts.length;
      const notice: AppNotice = {
        id: 'settings-partial',
        level: 'warning',
        message:
          `Some settings could not be used and were left out (everything else was kept): ${parts.join('; ')}` +
          `${more > 0 ? `; and ${more} more` : ''}. The original file is kept unchanged as ${backup}.`,
      };
      return { settings: salvaged.settings, notices: [notice] };
    },
    save(settings: Settings): void {
      write(settings);
    },
  };

  /** The whole document, through conf's atomic write. A file conf cannot parse is moved aside first, never overwritten. */
  function write(settings: Settings): void {
    if (conf === undefined && existsSync(file) && 'unusable' in read()) moveAside(file, now());
    open().store = settings as unknown as SettingsDocument;
  }
}

/**
 * Parses the file's text: a UTF-8 BOM is accepted; empty or non-JSON text, or JSON that is not an object, is a
 * config_invalid error (conf would otherwise spread an array or a string into the store).
 */
function parseSettingsText(text: string): SettingsDocument {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim().length === 0) throw new AppError('config_invalid', 'The settings file is empty');
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    throw new AppError('config_invalid', 'The settings file is not valid JSON');
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new AppError('config_invalid', 'The settings file is not a JSON object');
  }
  return raw as SettingsDocument;
}

/** Indented, because people read and edit this file. */
function serializeSettings(doc: SettingsDocument): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}
