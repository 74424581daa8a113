// Server processes that outlive a host killed with kill -9 are recorded in the data folder and offered at the next
// start: listed with their command line, ended on request (SIGTERM, then SIGKILL), and only when they are still the
// very groups recorded — a group that is gone or a pid now used by another process is never listed or signalled.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { LeftoverProcess } from '../../../shared/contract.js';
import { processStartToken } from '../../../electron/core/storage/data-lock.js';
import { groupAlive, processAlive } from '../../../electron/core/transports/process-group.js';
import { call, cleanup, makeHost, tempDir } from '../../shared/support/harness.js';
import { spawns, until } from './helpers.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const dirs: string[] = [];
const children: ChildProcess[] = [];
const strays: number[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await gone;
    }
  }
  // Belt and braces: nothing a failed test started may outlive it.
  for (const pid of strays.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone, as it should be
    }
  }
  dirs.splice(0).forEach(cleanup);
});

const dataDir = (): string => {
  const d = tempDir('sb-reap-');
  dirs.push(d);
  return d;
};

interface Recorded {
  groups: { pgid: number; pid: number; serverId: string; command: string; startedAt: string; startTicks?: string; bootId?: string }[];
}
const recorded = (dir: string): Recorded => {
  try {
    return JSON.parse(readFileSync(join(dir, 'processes.json'), 'utf8')) as Recorded;
  } catch {
    return { groups: [] };
  }
};

/** A process in a group of its own (pgid = pid) that lives until killed. */
async function ownGroup(): Promise<ChildProcess & { pid: number }> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { detached: true, stdio: 'ignore' });
  children.push(child);
  await new Promise((r) => child.once('spawn', r));
  if (child.pid === undefined) throw new Error('no pid');
  strays.push(child.pid);
  return child as ChildProcess & { pid: number };
}

describe('process record', () => {
  it('offers to end server processes left running by a host killed with kill -9, and ends them', async () => {
    const dir = dataDir();
    const pidFile = join(dir, 'mule.pids');
    const host = spawn(process.execPath, ['--import', 'tsx', 'test/core/sessions/fixtures/crash-host.ts', dir, pidFile], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(host);
    const state = await new Promise<string>((resolve, reject) => {
      createInterface({ input: host.stdout! }).once('line', resolve);
      host.once('exit', (code) => reject(new Error(`the host exited with ${String(code)}`)));
    });
    expect(state).toBe('connected');
    // The server and its grandchild (same group) have written their pids; the group is in the record.
    await until(() => spawns(pidFile).length === 2, 20_000, 'the server and its grandchild');
    const [leader, grandchild] = spawns(pidFile) as [number, number];
    await until(() => recorded(dir).groups.some((g) => g.pgid === leader), 10_000, 'the group in processes.json');
    strays.push(leader);

    const exited = new Promise((r) => host.once('exit', r));
    host.kill('SIGKILL');
    await exited;
    // The server ignores the end of its stdin: it and its grandchild outlive the host.
    expect([leader, grandchild].filter(processAlive)).toEqual([leader, grandchild]);

    const next = makeHost(dir);
    const notice = next.host.info().notices.find((n) => n.id === 'leftover-processes');
    expect(notice?.message).toMatch(/^1 server process from an earlier run is still running/);
    const listed = await call<LeftoverProcess[]>(next.dispatch, 'app.leftovers', {});
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ pgid: leader, serverId: 'mule' });
    expect(listed[0]?.command).toContain('stubborn.ts --label "say \\"hi\\"" xred');
    expect(listed[0]?.command).not.toMatch(/\u001b/);

    // SIGTERM is ignored by both: SIGKILL after the grace ends the whole group.
    const result = await call<{ ended: LeftoverProcess[]; remaining: LeftoverProcess[] }>(next.dispatch, 'app.endLeftovers', {
      pgids: [leader],
    });
    expect(result.ended.map((e) => e.pgid)).toEqual([leader]);
    expect(result.remaining).toEqual([]);
    expect([leader, grandchild].filter(processAlive)).toEqual([]);
    expect(groupAlive(leader)).toBe(false);
    expect(await call(next.dispatch, 'app.leftovers', {})).toEqual([]);
    expect(next.host.info().notices.some((n) => n.id === 'leftover-processes')).toBe(false);
    await next.host.shutdown();
    // Ended for good: the record no longer names it, so a third start offers nothing.
    expect(recorded(dir).groups.some((g) => g.pgid === leader)).toBe(false);
  }, 60_000);

  it('lists only groups still running and still ours; never signals an unlisted or reused pid', async () => {
    const dir = dataDir();
    const ours = await ownGroup();
    const reused = await ownGroup();
    const gone = await ownGroup();
    const goneExit = new Promise((r) => gone.once('exit', r));
    process.kill(-gone.pid, 'SIGKILL');
    await goneExit;
    expect(groupAlive(gone.pid)).toBe(false);
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const entry = (pid: number, startTicks: string | undefined): Recorded['groups'][number] => ({
      pgid: pid,
      pid,
      serverId: 'srv',
      command: `node server-${pid}.js`,
      startedAt: new Date().toISOString(),
      ...(startTicks !== undefined ? { startTicks } : {}),
      bootId: boot,
    });
    const ticks = processStartToken(ours.pid);
    expect(ticks).toMatch(/^\d+$/);
    writeFileSync(
      join(dir, 'processes.json'),
      JSON.stringify({
        groups: [
          entry(ours.pid, ticks),
          // The pid is running, but it started at another time: the recorded process is gone and the pid reused.
          entry(reused.pid, String(Number(processStartToken(reused.pid)) + 1)),
          entry(gone.pid, '1'),
          // Not a group leader, and a pgid that would mean "my own group" or "everyone": never ours.
          { ...entry(reused.pid, processStartToken(reused.pid)), pid: process.pid },
          entry(0, '1'),
          entry(-1, '1'),
        ],
      }),
    );

    const h = makeHost(dir);
    expect(h.host.info().notices.find((n) => n.id === 'leftover-processes')?.message).toMatch(/^1 server process/);
    const listed = await call<LeftoverProcess[]>(h.dispatch, 'app.leftovers', {});
    expect(listed.map((l) => l.pgid)).toEqual([ours.pid]);

    // An unlisted pgid (the reused one) is refused with a typed error and nothing is signalled, not even the listed one.
    const refused = await h.dispatch('app.endLeftovers', { pgids: [ours.pid, reused.pid] });
    expect(refused).toMatchObject({ ok: false, error: { code: 'not_found' } });
    for (const bad of [
      { pgids: [] },
      { pgids: [0] },
      { pgids: [-1] },
      { pgids: [1.5] },
      { pgids: ['7'] },
      {},
      { pgids: [ours.pid], all: true },
    ]) {
      expect(await h.dispatch('app.endLeftovers', bad)).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    }
    expect(processAlive(ours.pid) && processAlive(reused.pid)).toBe(true);

    // The listed one ends at SIGTERM; the reused pid's process is untouched.
    const ourExit = new Promise((r) => ours.once('exit', r));
    const result = await call<{ ended: LeftoverProcess[] }>(h.dispatch, 'app.endLeftovers', { pgids: [ours.pid] });
    await ourExit;
    expect(result.ended.map((e) => e.pgid)).toEqual([ours.pid]);
    expect(ours.signalCode).toBe('SIGTERM');
    expect(processAlive(reused.pid)).toBe(true);
    await h.host.shutdown();
    expect(recorded(dir).groups).toEqual([]);
  });

  it('moves a corrupt record aside with a notice and starts without leftovers', async () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'processes.json'), '{"groups": [');
    const h = makeHost(dir);
    expect(await call(h.dispatch, 'app.leftovers', {})).toEqual([]);
    expect(h.host.info().notices.some((n) => n.id === 'leftover-processes')).toBe(false);
    expect(existsSync(join(dir, 'processes.json'))).toBe(false);
    // Moved aside, and the person is told where (not only the log).
    const notice = h.host.info().notices.find((n) => n.id === 'processes-file-corrupt');
    expect(notice?.message).toMatch(/processes\.corrupt-.*\.json/);
    await h.host.shutdown();
  });
});
