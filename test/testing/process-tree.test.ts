// The process bookkeeping behind the kit's leftover check, on real processes.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  descendantsOf,
  describeProcess,
  killAll,
  listProcesses,
  parseProcStat,
  ProcessWatch,
  type ProcessInfo,
} from '../../testing/process-tree.js';

const proc = (pid: number, ppid: number, state = 'S'): ProcessInfo => ({ pid, ppid, pgid: pid, state, start: '1', command: `p${pid}` });

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('process tree', () => {
  it('reads a /proc stat line whose program name holds spaces and parentheses', () => {
    const line = '4242 (a (b) c) S 17 4242 4242 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 987654 1000 10 0';
    expect(parseProcStat(line)).toEqual({ pid: 4242, name: 'a (b) c', state: 'S', ppid: 17, pgid: 4242, start: '987654' });
    const self = parseProcStat(readFileSync('/proc/self/stat', 'utf8'));
    expect(self.pid).toBe(process.pid);
    expect(self.ppid).toBe(process.ppid);
  });

  it('walks descendants breadth first and leaves zombies out', () => {
    const all = [proc(1, 0), proc(10, 1), proc(11, 10), proc(12, 10, 'Z'), proc(13, 11), proc(20, 1)];
    expect(descendantsOf(10, all).map((p) => p.pid)).toEqual([11, 13]);
    expect(descendantsOf(99, all)).toEqual([]);
  });

  it("names a daemon that escaped its parent's process group after the parent died, and kills it", async () => {
    // parent → daemon in its own session (detached) that ignores SIGTERM and prints its pid.
    const script = `
      const { spawn } = require('node:child_process');
      const d = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setTimeout(() => {}, 60000)"], { detached: true, stdio: 'ignore' });
      console.log(d.pid);
      setTimeout(() => {}, 60000);`;
    const parent = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
    const daemonPid = await new Promise<number>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
    const watch = new ProcessWatch(parent.pid!);
    await until(() => watch.known().some((p) => p.pid === daemonPid), 'the daemon to be seen');
    expect(watch.known().find((p) => p.pid === daemonPid)!.pgid).toBe(daemonPid);

    parent.kill('SIGKILL');
    await new Promise((r) => parent.once('exit', r));
    const left = watch.alive();
    expect(left.map((p) => p.pid)).toEqual([daemonPid]);
    expect(describeProcess(left[0]!)).toMatch(new RegExp(`^pid ${daemonPid} \\(.*node`));

    killAll(left);
    await until(() => !listProcesses().some((p) => p.pid === daemonPid && p.state !== 'Z'), 'the daemon to die');
    expect(watch.alive()).toEqual([]);
  });

  it('never counts a reused pid as the process it remembers', () => {
    const watch = new ProcessWatch(process.pid);
    const me = watch.known().find((p) => p.pid === process.pid)!;
    expect(watch.alive().some((p) => p.pid === process.pid)).toBe(true);
    // Same pid, another start time: a different process.
    (watch as unknown as { known(): ProcessInfo[] }).known = () => [{ ...me, start: `${me.start}0` }];
    expect(watch.alive()).toEqual([]);
  });
});
