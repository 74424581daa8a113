// What the fixture needs of a shell (headless or Electron): a page showing Switchboard, a contract transport, its
// output, a restart on the same data folder, and a stop that reports anything left behind.
import type { Page } from '@playwright/test';
import type { BridgeTransport } from './bridge-client.js';
import type { StopReport } from './stop-check.js';

/** Which Switchboard the fixture starts: the headless build in the project's browser, or the Electron app. */
export type SwitchboardShell = 'headless' | 'electron';

/** What every launch gets. */
export interface ShellLaunch {
  /** The data folder (settings, history, logs). */
  dataDir: string;
  /** Port on 127.0.0.1 for headless mode (0: a free one). */
  port: number;
  /** Extra environment for the app's process. */
  env: Record<string, string>;
}

/** A running shell. */
export interface ShellHandle {
  /** Which shell this is. */
  readonly shell: SwitchboardShell;
  /** The page showing Switchboard (the same object across a headless restart; a new window after an Electron one). */
  readonly page: Page;
  /** The address the page was opened at (headless: carries the token). */
  readonly url: string;
  /** The bridge port (headless only). */
  readonly port: number | undefined;
  /** The access token (headless only). */
  readonly token: string | undefined;
  /** The app's main process id. */
  readonly pid: number;
  /** Carries contract calls and events. */
  readonly transport: BridgeTransport & { connect(): Promise<void> };
  /** What the app printed (stdout and stderr). */
  output(): string;
  /** Stops the app (failing if it did not stop cleanly) and starts it again on the same data folder. */
  restart(): Promise<void>;
  /** Stops the app and reports what went wrong, if anything. Safe to call twice. */
  stop(): Promise<StopReport>;
}
