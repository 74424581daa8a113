// Issue 22, item 12: after an unclean stop (kill -9 of a real process holding the core), the next start says the last
// moments of History may be missing; after a clean shutdown it says nothing.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RUN_MARKER_FILE, UNCLEAN_STOP_NOTICE } from '../../../electron/core/lifecycle/run-marker.js';
import { processAlive } from '../../../electron/core/transports/process-group.js';
import { cleanup, makeHost, tempDir, type HostHarness } from '../../shared/support/harness.js';

const HOLD = join(import.meta.dirname, '../../fixtures/core/hold-core.ts');
const dirs: string[] = [];
const hosts: HostHarness[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.host.shutdown();
  dirs.splice(0).forEach(cleanup);
});

function fresh(): string {
  const dir = tempDir('sb-marker-');
  dirs.push(dir);
  return dir;
}

const uncleanNotice = (h: HostHarness) => h.host.info().notices.find((n) => n.id === UNCLEAN_STOP_NOTICE);

describe('the running marker', () => {
  it('a clean shutdown leaves no marker and the next start raises no notice', async () => {
    const dir = fresh();
    const first = makeHost(dir);
    expect(existsSync(join(dir, RUN_MARKER_FILE))).toBe(true);
    expect(uncleanNotice(first)).toBeUndefined();
    await first.host.shutdown();
    expect(existsSync(join(dir, RUN_MARKER_FILE))).toBe(false);
    const second = makeHost(dir);
    hosts.push(second);
    expect(uncleanNotice(second)).toBeUndefined();
  });

  it('after kill -9 of a process running the core, the next start says History may miss its last moments', async () => {
    const dir = fresh();
    const child = spawn(process.execPath, ['--import', 'tsx', HOLD, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('ready')) resolve();
      });
      child.once('exit', () => reject(new Error(`the core child exited before it was ready: ${out}`)));
    });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(processAlive(child.pid!)).toBe(false);
    const next = makeHost(dir);
    hosts.push(next);
    expect(uncleanNotice(next)?.message).toMatch(/did not stop cleanly.*last moments before it stopped may be missing/s);
  }, 60_000);
});
