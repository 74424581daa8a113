// The Electron shell for the fixture: the built app launched by electron-launch.ts on the test's data folder, its
// window as the page and its preload API as the bridge; stopped through the app's own quit path, then checked like
// the headless shell for a clean exit and nothing left running.
import { switchboardRoot } from './app-root.js';
import { preloadTransport } from './bridge-client.js';
import { electronSkipReason as launchSkipReason, launchElectronApp, type LaunchedApp } from './electron-launch.js';
import { ProcessWatch } from './process-tree.js';
import type { ShellHandle, ShellLaunch } from './shell.js';
import { stopAndCheck, type StopReport } from './stop-check.js';

const OUTPUT_LIMIT = 1024 * 1024;

/** Why the Electron shell cannot run on this machine, or null when it can. */
export function electronSkipReason(): string | null {
  return launchSkipReason(switchboardRoot());
}

interface Running {
  launched: LaunchedApp;
  watch: ProcessWatch;
  sampler: NodeJS.Timeout;
  exited: Promise<{ code: number | null; signal: string | null }>;
  stop(): Promise<StopReport>;
}

async function start(launch: ShellLaunch, append: (chunk: string) => void): Promise<Running> {
  const launched = await launchElectronApp({ dataDir: launch.dataDir, env: launch.env, root: switchboardRoot() });
  const proc = launched.app.process();
  proc.stdout?.setEncoding('utf8').on('data', append);
  proc.stderr?.setEncoding('utf8').on('data', append);
  const pid = proc.pid!;
  const watch = new ProcessWatch(pid);
  const sampler = setInterval(() => watch.sample(), 500);
  sampler.unref();
  const exited =
    proc.exitCode !== null || proc.signalCode !== null
      ? Promise.resolve({ code: proc.exitCode, signal: proc.signalCode })
      : new Promise<{ code: number | null; signal: string | null }>((resolve) =>
          proc.once('exit', (code, signal) => resolve({ code, signal })),
        );
  let report: Promise<StopReport> | undefined;
  return {
    launched,
    watch,
    sampler,
    exited,
    stop: () =>
      (report ??= stopAndCheck({
        pid,
        watch,
        exited,
        running: () => proc.exitCode === null && proc.signalCode === null,
        requestStop: () => void launched.close().catch(() => undefined),
        timeoutMs: 20_000,
      }).finally(() => clearInterval(sampler))),
  };
}

/** Starts the Electron shell. */
export async function startElectronShell(launch: ShellLaunch): Promise<ShellHandle> {
  let output = '';
  const append = (chunk: string): void => {
    output += chunk;
    if (output.length > OUTPUT_LIMIT) output = output.slice(-OUTPUT_LIMIT);
  };
  let running = await start(launch, append);
  const transport = preloadTransport(() => running.launched.window);
  return {
    shell: 'electron',
    get page() {
      return running.launched.window;
    },
    get url() {
      return running.launched.window.url();
    },
    port: undefined,
    token: undefined,
    get pid() {
      return running.launched.app.process().pid!;
    },
    transport,
    output: () => output,
    restart: async () => {
      await transport.close();
      const report = await running.stop();
      if (report.problems.length > 0) throw new Error(`Switchboard did not stop cleanly for the restart:\n${report.problems.join('\n')}`);
      running = await start(launch, append);
      await transport.connect();
    },
    stop: async () => {
      await transport.close();
      return running.stop();
    },
  };
}
