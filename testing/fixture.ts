// The Playwright fixtures: `switchboard` (a fresh Switchboard per test, with its own data folder and port, stopped
// and checked for leftover processes afterwards), `page` and `context` pointed at it, and `bridge` (the typed contract
// client). One option picks the shell: the headless build in the project's browser, or the Electron app.
import { test as base, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import type { ServerConfigInput } from '../shared/config.js';
import type { ServerDetail } from '../shared/contract.js';
import { createBridge, type SwitchboardBridge } from './bridge-client.js';
import { electronSkipReason, startElectronShell } from './electron-shell.js';
import { startHeadlessShell } from './headless-shell.js';
import { createPerson, type PersonHelpers } from './person.js';
import type { ShellHandle, SwitchboardShell } from './shell.js';

/** A running Switchboard, as the `switchboard` fixture gives it. */
export interface Switchboard extends PersonHelpers {
  /** Which shell runs it. */
  readonly shell: SwitchboardShell;
  /** Its data folder (settings, history, logs): the test's own. */
  readonly dataDir: string;
  /** The address the page opened (headless: carries the access token). */
  readonly url: string;
  /** The bridge port on 127.0.0.1 (headless only). */
  readonly port: number | undefined;
  /** The access token (headless only). */
  readonly token: string | undefined;
  /** The shell's process id (its core and servers run as its descendants). */
  readonly pid: number;
  /** The page showing it (after an Electron restart, the new window). */
  readonly page: Page;
  /** The typed contract client. */
  readonly bridge: SwitchboardBridge;
  /** What the app printed so far (stdout and stderr). */
  output(): string;
  /** Stops it (failing the test if it did not stop cleanly) and starts it again on the same data folder. */
  restart(): Promise<void>;
  /**
   * Set-up without clicking: adds a server through the contract and, for a stdio server, approves the launch it
   * shows (as the person would have). Returns the server's detail.
   */
  setUpServer(config: ServerConfigInput): Promise<ServerDetail>;
}

/** Options, set with `test.use({...})` or a project's `use`. */
export interface SwitchboardOptions {
  /** Which shell to start (default: the project's `metadata.shell`, else SWITCHBOARD_SHELL, else 'headless'). */
  switchboardShell: SwitchboardShell;
  /** A fixed bridge port for headless mode, offset by the worker's parallel index (default 0: a free port). */
  switchboardPort: number;
  /** Extra environment for Switchboard's process. */
  switchboardEnv: Record<string, string>;
}

/** The test-scoped fixtures. */
export interface SwitchboardFixtures {
  /** The data folder the test's Switchboard starts on (override this fixture to prepare files before launch). */
  switchboardDataDir: string;
  /** The running Switchboard. */
  switchboard: Switchboard;
  /** The typed contract client of the running Switchboard. */
  bridge: SwitchboardBridge;
}

interface WorkerFixtures {
  switchboardShell: SwitchboardShell;
  switchboardPort: number;
  _switchboardBrowser: () => Promise<Browser>;
}

function defaultShell(metadata: Record<string, unknown> | undefined): SwitchboardShell {
  const wanted = metadata?.['shell'] ?? process.env['SWITCHBOARD_SHELL'];
  return wanted === 'electron' ? 'electron' : 'headless';
}

/** Playwright's `test` with the Switchboard fixtures. */
export const test = base.extend<
  SwitchboardFixtures & Pick<SwitchboardOptions, 'switchboardEnv'> & { page: Page; context: BrowserContext },
  WorkerFixtures
>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from its parameter list
  switchboardShell: [async ({}, use, workerInfo) => use(defaultShell(workerInfo.project.metadata)), { scope: 'worker', option: true }],
  switchboardPort: [0, { scope: 'worker', option: true }],
  switchboardEnv: [{}, { option: true }],
  // The project's browser, launched with its launch options on first use only: the Electron shell never needs it.
  _switchboardBrowser: [
    async ({ playwright, browserName }, use) => {
      let browser: Promise<Browser> | undefined;
      await use(() => (browser ??= playwright[browserName].launch()));
      if (browser) await (await browser).close();
    },
    { scope: 'worker', box: true },
  ],
  // eslint-disable-next-line no-empty-pattern -- as above
  switchboardDataDir: async ({}, use, testInfo) => {
    const dir = testInfo.outputPath('switchboard-data');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    await use(dir);
  },
  switchboard: async ({ switchboardShell, switchboardPort, switchboardEnv, switchboardDataDir, _switchboardBrowser }, use, testInfo) => {
    const launch = {
      dataDir: switchboardDataDir,
      port: switchboardPort === 0 ? 0 : switchboardPort + testInfo.parallelIndex,
      env: switchboardEnv,
    };
    let handle: ShellHandle;
    if (switchboardShell === 'electron') {
      const reason = electronSkipReason();
      testInfo.skip(reason !== null, `Electron shell: ${reason ?? ''}`);
      handle = await startElectronShell(launch);
    } else {
      handle = await startHeadlessShell(launch, _switchboardBrowser);
    }
    const bridge = createBridge(handle.transport);
    const person = createPerson(() => handle.page, bridge);
    const switchboard: Switchboard = {
      ...person,
      shell: handle.shell,
      dataDir: switchboardDataDir,
      get url() {
        return handle.url;
      },
      get port() {
        return handle.port;
      },
      get token() {
        return handle.token;
      },
      get pid() {
        return handle.pid;
      },
      get page() {
        return handle.page;
      },
      bridge,
      output: () => handle.output(),
      restart: () => handle.restart(),
      setUpServer: async (config) => {
        const added = await bridge['servers.add']({ config });
        if (!added.approval?.required) return added;
        return bridge['servers.approve']({ id: added.id, fingerprint: added.approval.fingerprint });
      },
    };
    await use(switchboard);
    // Teardown: runs whether the test passed or not (its own error is reported separately).
    const report = await handle.stop();
    if (testInfo.status !== testInfo.expectedStatus || report.problems.length > 0) {
      await testInfo.attach('switchboard output', { body: handle.output(), contentType: 'text/plain' });
    }
    if (report.problems.length > 0) throw new Error(`Switchboard did not stop cleanly:\n${report.problems.join('\n')}`);
  },
  bridge: async ({ switchboard }, use) => use(switchboard.bridge),
  page: async ({ switchboard }, use) => use(switchboard.page),
  context: async ({ switchboard }, use) => use(switchboard.page.context()),
});
