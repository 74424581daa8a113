// Shutdown through the core as both shells build it (bootstrap): servers that ignore stdin EOF and SIGTERM (and a
// grandchild in their group that does too) are gone when shutdown resolves, even when it is cut short; the tool
// approvals, call history and discovery verdicts made just before quitting are on disk; hooks run in their stages,
// bounded; nothing is spawned once shutdown has begun.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { bootstrap, DISCOVERY_CACHE_FILE, type Bootstrapped } from '../../../electron/bootstrap.js';
import { QUIT_TIMEOUT_MS } from '../../../electron/app/quit.js';
import { HISTORY_FILE } from '../../../electron/core/calls/host-calls.js';
import { SHUTDOWN_TIMEOUT_MS } from '../../../electron/core/host.js';
import { CoreLifetime } from '../../../electron/core/lifecycle/core-lifetime.js';
import { FLUSH_GRACE_MS, type ShutdownHook, type ShutdownReport } from '../../../electron/core/lifecycle/shutdown.js';
import { processAlive } from '../../../electron/core/transports/process-group.js';
import { createSettingsStore } from '../../../electron/platform/settings-store.js';
import { cleanup, tempDir } from '../../shared/support/harness.js';
import { addApproved, fixture, spawns, stdioServer } from '../sessions/helpers.js';

const dirs: string[] = [];
const hosts: Bootstrapped[] = [];
const pidFiles: string[] = [];

afterEach(async () => {
  for (const b of hosts.splice(0)) await b.host.shutdown();
  // Belt and braces: nothing a failed test started may outlive it.
  for (const file of pidFiles.splice(0)) {
    for (const pid of spawns(file)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone, as it should be
      }
    }
  }
  dirs.splice(0).forEach(cleanup);
});

async function start(): Promise<Bootstrapped & { dir: string }> {
  const dir = tempDir('sb-shutdown-');
  dirs.push(dir);
  const b = await bootstrap({ mode: 'headless', version: '0.0.0-test', settingsStore: createSettingsStore(dir), credentials: 'memory' });
  hosts.push(b);
  return { ...b, dir };
}

async function stubborn(host: Bootstrapped['host'], dir: string, id: string): Promise<string> {
  const pidFile = join(dir, `${id}.pids`);
  pidFiles.push(pidFile);
  await addApproved(host, stdioServer(id, fixture('stubborn.ts'), { lifecycle: 'initialize' }, { STUBBORN_PID_FILE: pidFile }));
  expect(await host.sessions.connect(id)).toMatchObject({ state: 'connected' });
  return pidFile;
}

async function waitFor(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('host shutdown', () => {
  it('ends servers that ignore stdin EOF and SIGTERM, grandchildren included, and leaves no process', async () => {
    const { host, dir } = await start();
    const files = [await stubborn(host, dir, 'mule'), await stubborn(host, dir, 'ox')];
    // Each server and its grandchild have written their pid.
    await waitFor(() => files.every((f) => spawns(f).length === 2), 'the servers and their grandchildren');
    const pids = files.flatMap(spawns);
    expect(pids.every(processAlive)).toBe(true);

    // With time to spare, each transport's own release does it: close stdin, wait, SIGTERM the group, wait, SIGKILL.
    const report = await host.shutdown({ timeoutMs: 15_000 });
    expect(pids.filter(processAlive)).toEqual([]);
    expect(report.steps.find((s) => s.name === 'release sessions')?.outcome).toBe('ok');
    expect(host.closing).toBe(true);
  });

  it('cut short by its deadline, still ends every process group before it resolves', async () => {
    const { host, dir } = await start();
    const file = await stubborn(host, dir, 'mule');
    await waitFor(() => spawns(file).length === 2, 'the server and its grandchild');
    // The polite path (close stdin, 2 s, SIGTERM, 2 s, SIGKILL) does not fit in 1.5 s: the release stage kills.
    const report = await host.shutdown({ timeoutMs: 1500 });
    expect(spawns(file).filter(processAlive)).toEqual([]);
    expect(report.steps.find((s) => s.name === 'release sessions')?.outcome).toBe('timed out');
    expect(report.steps.find((s) => s.name === 'end leftover server processes')?.outcome).toBe('ok');
  });

  it('writes the tool approvals, the call history and the discovery verdict made just before quitting', async () => {
    const { host, dir } = await start();
    await addApproved(host, stdioServer('fx', fixture('echo-stdio.ts'), { lifecycle: 'auto' }));
    expect(await host.sessions.connect('fx')).toMatchObject({ state: 'connected' });
    // The catalog pins every tool on first sight (a deferred write), then a call is recorded (another one).
    await waitFor(() => {
      try {
        return host.catalog.tool('mcp__fx__echo').pin === 'approved';
      } catch {
        return false;
      }
    }, 'the echo tool in the catalog');
    const outcome = await host.calls.call({ name: 'mcp__fx__echo', arguments: { text: 'last words' } });
    expect(outcome.status).toBe('ok');
    await host.shutdown();

    const pins = JSON.parse(readFileSync(join(dir, 'tool-pins.json'), 'utf8')) as { pins: Record<string, unknown> };
    expect(Object.keys(pins.pins)).toContain('fx\u0000echo');
    const history = JSON.parse(readFileSync(join(dir, HISTORY_FILE), 'utf8')) as { entries: { callId: string }[] };
    expect(history.entries.map((e) => e.callId)).toContain(outcome.callId);
    const cache = JSON.parse(readFileSync(join(dir, DISCOVERY_CACHE_FILE), 'utf8')) as { entries: Record<string, unknown> };
    expect(Object.keys(cache.entries)).toEqual(['fx']);
  });

  it('runs hooks in their stages, bounds a stuck one, and refuses to start a server once closing', async () => {
    const { host, dir } = await start();
    const order: string[] = [];
    host.onShutdown({ name: 'last write', stage: 'flush', run: () => void order.push('flush') });
    host.onShutdown({ name: 'close the front door', stage: 'stop', run: () => void order.push('stop') });
    host.onShutdown({ name: 'stuck', stage: 'stop', timeoutMs: 200, run: () => new Promise<void>(() => undefined) });
    host.onShutdown({ name: 'broken', stage: 'release', run: () => Promise.reject(new Error('nope')) });
    const removed = host.onShutdown({ name: 'removed', run: () => void order.push('removed') });
    removed();
    const latePids = join(dir, 'late.pids');
    pidFiles.push(latePids);
    await addApproved(host, stdioServer('late', fixture('stubborn.ts'), { lifecycle: 'initialize' }, { STUBBORN_PID_FILE: latePids }));

    const report = await host.shutdown();
    expect(order).toEqual(['stop', 'flush']);
    expect(report.steps.find((s) => s.name === 'stuck')).toMatchObject({ outcome: 'timed out' });
    expect(report.steps.find((s) => s.name === 'broken')).toMatchObject({ outcome: 'failed', error: 'nope' });
    // A second call returns the same report; a connect after shutdown spawns nothing.
    expect(await host.shutdown()).toBe(report);
    const status = await host.sessions.connect('late');
    expect(status.state).not.toBe('connected');
    expect(spawns(latePids)).toEqual([]);
  });
});

/** A step stuck in every stage next to writes that finish: what the shell's wait has to hold. */
function stuckEverywhere(add: (hook: ShutdownHook) => void, wrote: string[]): void {
  const never = (): Promise<void> => new Promise<void>(() => undefined);
  add({ name: 'stuck stop', stage: 'stop', timeoutMs: 60_000, run: never });
  add({ name: 'stuck release', stage: 'release', timeoutMs: 60_000, run: never });
  // Two stuck writes: one after the other, each with its own floor past the deadline, they would take seconds.
  add({ name: 'stuck write', stage: 'flush', timeoutMs: 60_000, run: never });
  add({ name: 'stuck write 2', stage: 'flush', timeoutMs: 60_000, run: never });
  for (const name of ['write a', 'write b', 'write c']) {
    add({ name, stage: 'flush', run: () => void wrote.push(name) });
  }
  // The final step writes too (closing the log): it keeps time of its own after the stuck writes used theirs.
  add({
    name: 'after the writes',
    stage: 'final',
    run: async () => {
      await new Promise((r) => setTimeout(r, 60));
      wrote.push('final');
    },
  });
}

const STUCK = ['stuck stop', 'stuck release', 'stuck write', 'stuck write 2'];

describe('shutdown within the desktop shell’s wait', () => {
  it('with a step stuck in every stage, cuts the stuck ones off and every write still runs', async () => {
    const { host } = await start();
    const wrote: string[] = [];
    stuckEverywhere((hook) => host.onShutdown(hook), wrote);
    const report = await host.shutdown({ timeoutMs: 1500 });
    expect(wrote).toEqual(['write a', 'write b', 'write c', 'final']);
    expect(report.steps.find((s) => s.name === 'after the writes')).toMatchObject({ outcome: 'ok' });
    for (const name of STUCK) expect(report.steps.find((s) => s.name === name)).toMatchObject({ outcome: 'timed out' });
    expect(report.steps.find((s) => s.name === 'write call history')).toMatchObject({ outcome: 'ok' });
  });

  it('ends within its deadline plus the writes’ grace, measured on a fake clock', async () => {
    // The desktop shell waits QUIT_TIMEOUT_MS for a deadline of SHUTDOWN_TIMEOUT_MS: the grace must fit between them.
    expect(SHUTDOWN_TIMEOUT_MS + FLUSH_GRACE_MS).toBeLessThan(QUIT_TIMEOUT_MS);
    vi.useFakeTimers({ now: 0 });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const lifetime = new CoreLifetime();
    const wrote: string[] = [];
    stuckEverywhere((hook) => lifetime.add(hook), wrote);
    const timeoutMs = 1500;
    let ended: { at: number; report: ShutdownReport } | undefined;
    void lifetime.shutdown({ timeoutMs }).then((report) => (ended = { at: Date.now(), report }));
    // A stuck write given its own 60 s instead of the grace would still be running here.
    await vi.advanceTimersByTimeAsync(timeoutMs + FLUSH_GRACE_MS);
    expect(ended, 'still running at its deadline plus the grace').toBeDefined();
    expect(ended!.at).toBeLessThanOrEqual(timeoutMs + FLUSH_GRACE_MS);
    expect(wrote).toEqual(['write a', 'write b', 'write c', 'final']);
    for (const name of STUCK) expect(ended!.report.steps.find((s) => s.name === name)).toMatchObject({ outcome: 'timed out' });
  });
});
