// The desktop app's settings store: the same store and file as headless mode (settings-store.ts), through
// electron-store, conf's Electron subclass. The data folder is passed as `cwd`, so the file is the one headless mode
// and the CLI use, not one under Electron's userData.
import ElectronStore from 'electron-store';
import type { SettingsStore } from '../core/ports.js';
import { createSettingsStore, SETTINGS_NAME, type SettingsDocument } from './settings-store.js';

/** Creates the SettingsStore of the data folder `dir`, written through electron-store. */
export function createElectronSettingsStore(dir: string): SettingsStore {
  // electron-store names the file with `name` (it overrides conf's `configName`).
  return createSettingsStore(dir, { conf: (options) => new ElectronStore<SettingsDocument>({ ...options, name: SETTINGS_NAME }) });
}
