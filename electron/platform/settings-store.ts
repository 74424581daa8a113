// SettingsStore on top of conf (headless, tests) or electron-store (app): same file format.
// A corrupt or schema-invalid file is moved aside byte-for-byte before the library touches it.
import { chmodSync, existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { defaultSettings, type Settings } from '../../shared/config.js';
import type { AppNotice } from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';
import { migrateSettings } from '../core/settings/migrate.js';
import type { LoadedSettings, SettingsStore } from '../core/ports.js';

/** The slice of conf's API this adapter uses. */
export interface ConfLike {
  /** Whole-store getter and atomic whole-store setter. */
  store: Record<string, unknown>;
}

/** Constructor options passed to conf or electron-store. */
export interface ConfOptions {
  cwd: string;
  configName: string;
  configFileMode: number;
  clearInvalidConfig: false;
  accessPropertiesByDotNotation: false;
  watch: false;
}

/** Name of the settings file (without .json). */
export const SETTINGS_NAME = 'config';

/** Creates a SettingsStore in `dir`, using `makeConf` (conf's or electron-store's constructor). */
export function createSettingsStore(
  dir: string,
  makeConf: (opts: ConfOptions) => ConfLike,
  now: () => Date = () => new Date(),
): SettingsStore {
  const file = join(dir, `${SETTINGS_NAME}.json`);
  let conf: ConfLike | undefined;
  const open = (): ConfLike =>
    (conf ??= makeConf({
      cwd: dir,
      configName: SETTINGS_NAME,
      configFileMode: 0o600,
      clearInvalidConfig: false,
      accessPropertiesByDotNotation: false,
      watch: false,
    }));

  return {
    dir,
    load(): LoadedSettings {
      const notices: AppNotice[] = [];
      if (!existsSync(file)) return { settings: defaultSettings(), notices };
      let reason: string;
      try {
        const text = readFileSync(file, 'utf8');
        if (text.trim().length === 0) throw new AppError('config_invalid', 'The settings file is empty');
        let raw: unknown;
        try {
          raw = JSON.parse(text);
        } catch {
          throw new AppError('config_invalid', 'The settings file is not valid JSON');
        }
        const settings = migrateSettings(raw);
        if (process.platform !== 'win32') chmodSync(file, 0o600);
        return { settings, notices };
      } catch (err) {
        reason = err instanceof AppError ? err.message : 'The settings file could not be read';
      }
      const stamp = now().toISOString().replace(/[:.]/g, '-');
      // Never clobber an earlier backup (same timestamp after a clock step back, or two loads in one ms).
      let backup = join(dir, `${SETTINGS_NAME}.corrupt-${stamp}.json`);
      for (let n = 1; existsSync(backup); n += 1) backup = join(dir, `${SETTINGS_NAME}.corrupt-${stamp}-${n}.json`);
      renameSync(file, backup);
      notices.push({
        id: 'settings-corrupt',
        level: 'error',
        message: `${reason}. It was moved aside to ${backup} and Switchboard started with default settings.`,
      });
      return { settings: defaultSettings(), notices };
    },
    save(settings: Settings): void {
      open().store = settings as unknown as Record<string, unknown>;
    },
  };
}
