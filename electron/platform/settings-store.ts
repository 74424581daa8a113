// The settings file (config.json in the data folder), read and written with the core's one atomic JSON helper
// (temp file, fsync, rename, mode 0600). Both shells use this store. We used to write through conf / electron-store;
// they added nothing we used (no schema, no watch, no dot paths) and their own reader cannot take a UTF-8 BOM, so the
// file now has a single reader and writer here.
//
// Loading never loses data: a file that cannot be used at all (not JSON, empty, not an object, newer schema) is
// moved aside byte for byte; a file with some bad parts (one invalid server, an unknown key, a bad value) keeps every
// good part, the original is moved aside verbatim as the backup, and the notice lists what was left out and why.
// Temp files left by an interrupted write are removed at start.
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultSettings, type Settings } from '../../shared/config.js';
import type { AppNotice } from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';
import { salvageSettings } from '../core/settings/migrate.js';
import type { LoadedSettings, SettingsStore } from '../core/ports.js';
import { copyAside, JsonText, moveAside, removeLeftoverTemps, writeJsonAtomicSync } from '../core/storage/json-file.js';

/** Name of the settings file (without .json). */
export const SETTINGS_NAME = 'config';

/** Most parts named in a notice; the rest are counted. */
const NOTICE_PARTS = 10;

/** Options of the settings store. */
export interface SettingsStoreOptions {
  /** The clock used to name backups (tests fix it). */
  now?: () => Date;
}

/** Creates the SettingsStore of the data folder `dir`. */
export function createSettingsStore(dir: string, opts: SettingsStoreOptions = {}): SettingsStore {
  const file = join(dir, `${SETTINGS_NAME}.json`);
  const now = opts.now ?? (() => new Date());

  return {
    dir,
    load(): LoadedSettings {
      removeLeftoverTemps(file);
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { settings: defaultSettings(), notices: [] };
        throw new AppError('storage_failed', `The settings file could not be read: ${(err as Error).message}`, { cause: err });
      }
      let salvaged: ReturnType<typeof salvageSettings>;
      try {
        salvaged = salvageSettings(parseSettingsText(text));
      } catch (err) {
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
      writeSettings(file, salvaged.settings);
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
      writeSettings(file, settings);
    },
  };
}

/** Parses the file's text: a UTF-8 BOM is accepted; empty or non-JSON text is a config_invalid error. */
function parseSettingsText(text: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim().length === 0) throw new AppError('config_invalid', 'The settings file is empty');
  try {
    return JSON.parse(body);
  } catch {
    throw new AppError('config_invalid', 'The settings file is not valid JSON');
  }
}

/** Indented, because people read and edit this file. */
function writeSettings(file: string, settings: Settings): void {
  writeJsonAtomicSync(file, new JsonText(`${JSON.stringify(settings, null, 2)}\n`));
}
