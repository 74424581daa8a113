// The e2e suite's launcher is the kit's: `startHeadless` is `launchHeadless` from switchboard/testing (the built
// headless app on its own data folder and a free port), and `stop()` fails the test when Switchboard did not quit
// cleanly or left a process running. New specs use the kit's `test` fixture directly (re-exported here).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchHeadless } from '../../../testing/index';

export { expect, test } from '../../../testing/index';

/** A running headless host. */
export interface HeadlessHost {
  url: string;
  port: number;
  token: string;
  dataDir: string;
  /** Everything it printed (stdout and stderr). */
  stderr: () => string;
  /** Stops it; rejects naming what went wrong when it did not quit with 0 or left a process running. */
  stop: () => Promise<void>;
}

/** A fresh temporary data folder. */
export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'switchboard-e2e-'));
}

/** Starts the host and resolves once it printed its URL line. */
export async function startHeadless(dataDir: string, env: Record<string, string> = {}): Promise<HeadlessHost> {
  const app = await launchHeadless({ dataDir, env });
  return {
    url: app.url,
    port: app.port,
    token: app.token,
    dataDir,
    stderr: () => app.output(),
    stop: async () => {
      const report = await app.stop();
      if (report.problems.length > 0)
        throw new Error(`Switchboard did not stop cleanly:\n${report.problems.join('\n')}\n--- output ---\n${app.output().slice(-4000)}`);
    },
  };
}
