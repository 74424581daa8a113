// Launches the built Electron app for Playwright, the way the kit's shared fixture will for every spec in the
// "electron" project: the real main process (dist/electron/main.mjs), a fresh data folder (SWITCHBOARD_DATA_DIR),
// memory-only credentials unless asked, and a clean close that waits for the app's own shutdown.
import { _electron as electron, type ElectronApplication, type Page } from '@playwright/test';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** The Electron binary: ELECTRON_OVERRIDE_DIST_PATH, or the electron package's own download; null when absent. */
export function electronBinary(root: string = repoRoot): string | null {
  const override = process.env['ELECTRON_OVERRIDE_DIST_PATH'];
  if (override) {
    const name =
      process.platform === 'win32' ? 'electron.exe' : process.platform === 'darwin' ? 'Electron.app/Contents/MacOS/Electron' : 'electron';
    const p = join(override, name);
    return existsSync(p) ? p : null;
  }
  const pathTxt = join(root, 'node_modules', 'electron', 'path.txt');
  if (!existsSync(pathTxt)) return null;
  const bin = join(root, 'node_modules', 'electron', 'dist', readFileSync(pathTxt, 'utf8').trim());
  return existsSync(bin) ? bin : null;
}

/** Why the Electron project is skipped on this machine, or null when it can run. */
export function electronSkipReason(root: string = repoRoot): string | null {
  if (electronBinary(root) === null) {
    return 'no Electron binary is installed (ELECTRON_SKIP_BINARY_DOWNLOAD, or no network to fetch it); the headless project runs the same renderer and core';
  }
  if (!existsSync(join(root, 'dist', 'electron', 'main.mjs'))) return 'the app is not built (npm run build)';
  return null;
}

/** Options of one launch. */
export interface LaunchOptions {
  /** The data folder (default: a fresh temporary one). */
  dataDir?: string;
  /** Extra environment. */
  env?: Record<string, string>;
  /** Keep secrets in memory only (default true: tests never touch the machine's keychain). */
  memoryCredentials?: boolean;
  /** Repository root (default: this checkout). */
  root?: string;
}

/** A running app. */
export interface LaunchedApp {
  app: ElectronApplication;
  /** The first window, loaded. */
  window: Page;
  dataDir: string;
  /** Quits through the app's own quit path (which waits for the core's shutdown) and waits for the process. */
  close(): Promise<void>;
}

/** Starts the built app; throws with the skip reason when it cannot run here. */
export async function launchElectronApp(opts: LaunchOptions = {}): Promise<LaunchedApp> {
  const root = opts.root ?? repoRoot;
  const reason = electronSkipReason(root);
  if (reason !== null) throw new Error(`The Electron app cannot run here: ${reason}`);
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'switchboard-electron-'));
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  const app = await electron.launch({
    executablePath: electronBinary(root)!,
    args: [root],
    cwd: root,
    env: {
      ...env,
      SWITCHBOARD_DATA_DIR: dataDir,
      ...(opts.memoryCredentials === false ? {} : { SWITCHBOARD_CREDENTIALS: 'memory' }),
      ...opts.env,
    },
  });
  const window = await app.firstWindow();
  await window.waitForLoadState('domcontentloaded');
  return {
    app,
    window,
    dataDir,
    close: async () => {
      const exited = new Promise<void>((resolve) => app.process().once('exit', () => resolve()));
      await app.evaluate(({ app: electronApp }) => electronApp.quit()).catch(() => undefined);
      await exited;
    },
  };
}
