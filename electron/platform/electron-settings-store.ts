// The desktop app's settings store: the same store and file as headless mode (settings-store.ts), through
// electron-store, conf's Electron subclass. The data folder is passed as `cwd`, so the file is the one headless mode
// and the CLI use, not one under Electron's userData. electron-store is loaded only when this is called: it imports
// Electron, which a core started by the headless launcher (plain Node) must never load.
import type { SettingsStore } from '../core/ports.js';
import { createSettingsStore, SETTINGS_NAME, type SettingsDocument } from './settings-store.js';

/** Creates the SettingsStore of the data folder `dir`, written through electron-store. */
export async function createElectronSettingsStore(dir: string): Promise<SettingsStore> {
  const { default: ElectronStore } = await import('electron-store');
  // electron-store names the file with `name` (it overrides conf's `configName`).
  return createSettingsStore(dir, { conf: (options) => new ElectronStore<SettingsDocument>({ ...options, name: SETTINGS_NAME }) });
}
