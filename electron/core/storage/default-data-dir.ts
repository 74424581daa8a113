// Default data folder per platform, matching Electron's userData for the app name. The core owns it because the
// headless shell, the gateway's stdio entry point and the core's set-up help (which leaves out --data-dir when the
// folder is this one) must agree on it.
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The folder Switchboard keeps its settings in when none is given. */
export function defaultDataDir(appName = 'Switchboard'): string {
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', appName);
  if (process.platform === 'win32') return join(process.env['APPDATA'] ?? join(homedir(), 'AppData', 'Roaming'), appName);
  return join(process.env['XDG_CONFIG_HOME'] ?? join(homedir(), '.config'), appName);
}
