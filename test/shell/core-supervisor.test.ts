// The supervisor's restart pacing, with a stand-in core process (the supervisor's own CoreProcess interface) and a
// hand-driven clock: a core that keeps dying soon after it starts serving is restarted after longer and longer waits,
// and a core that ran a while starts the waits afresh. Real core processes are in core-restart.test.ts.
import { describe, expect, it } from 'vitest';
import type { CoreToShell, ShellToCore } from '../../electron/core-process/messages.js';
import {
  CoreSupervisor,
  MAX_CORE_FAILURES,
  QUICK_CRASH_MS,
  RESTART_BACKOFF_MS,
  STABLE_CORE_MS,
  type CoreProcess,
} from '../../electron/shell/core-supervisor.js';

class StandInCore implements CoreProcess {
  readonly pid = 4242;
  readonly posted: ShellToCore[] = [];
  #message: ((m: CoreToShell) => void)[] = [];
  #exit: ((why: string) => void)[] = [];
  post(message: ShellToCore): boolean {
    this.posted.push(message);
    return true;
  }
  onMessage(listener: (m: CoreToShell) => void): void {
    this.#message.push(listener);
  }
  onExit(listener: (why: string) => void): void {
    this.#exit.push(listener);
  }
  kill(): void {
    this.die('killed by SIGKILL');
  }
  say(m: CoreToShell): void {
    for (const l of this.#message) l(m);
  }
  die(why: string): void {
    for (const l of this.#exit.splice(0)) l(why);
  }
}

function harness() {
  let now = 1_000_000;
  const timers: { run: () => void; ms: number; cancelled: boolean }[] = [];
  const cores: StandInCore[] = [];
  const supervisor = new CoreSupervisor({
    launch: () => {
      const core = new StandInCore();
      cores.push(core);
      return core;
    },
    init: () => ({ mode: 'headless', version: '0', dataDir: '/nowhere', credentials: 'memory', echoLog: false }),
    serve: () => Promise.resolve(undefined),
    log: () => undefined,
    logFile: null,
    now: () => now,
    setTimer: (run, ms) => {
      const t = { run, ms, cancelled: false };
      timers.push(t);
      return { cancel: () => (t.cancelled = true) };
    },
  });
  /** The wait of the restart just scheduled, after running it. */
  const restartWait = (): number => {
    const t = timers.filter((x) => !x.cancelled && x.ms !== 30_000).at(-1)!;
    t.cancelled = true;
    t.run();
    return t.ms;
  };
  return { supervisor, cores, advance: (ms: number) => (now += ms), restartWait };
}

describe('CoreSupervisor restart pacing', () => {
  it('waits longer after each core that dies soon after serving, and afresh after one that ran a while', () => {
    const { supervisor, cores, advance, restartWait } = harness();
    void supervisor.start();
    const waits: number[] = [];
    for (let i = 0; i < 7; i++) {
      const core = cores.at(-1)!;
      core.say({ t: 'ready', logFile: null });
      advance(2_000); // served, but only for a moment
      core.die('exited with code 70');
      waits.push(restartWait());
    }
    expect(waits).toEqual([...RESTART_BACKOFF_MS, RESTART_BACKOFF_MS.at(-1), RESTART_BACKOFF_MS.at(-1)]);
    // Never given up on: each core served.
    expect(supervisor.status.state).toBe('restarting');

    const steady = cores.at(-1)!;
    steady.say({ t: 'ready', logFile: null });
    advance(STABLE_CORE_MS);
    steady.die('killed by SIGKILL');
    expect(restartWait()).toBe(RESTART_BACKOFF_MS[0]);
  });

  it('gives up on cores that die at once without answering anything, never on ones that answered a call', () => {
    const answering = harness();
    void answering.supervisor.start();
    for (let i = 0; i < MAX_CORE_FAILURES + 3; i++) {
      const core = answering.cores.at(-1)!;
      core.say({ t: 'ready', logFile: null });
      void answering.supervisor.dispatch('app.info', {});
      const invoke = core.posted.find((m) => m.t === 'invoke');
      expect(invoke).toBeDefined();
      core.say({ t: 'result', id: (invoke as { id: number }).id, envelope: { ok: true, value: {} } });
      answering.advance(QUICK_CRASH_MS / 4); // killed a moment after it answered
      core.die('killed by SIGKILL');
      answering.restartWait();
    }
    expect(answering.supervisor.status.state).toBe('restarting');

    const silent = harness();
    void silent.supervisor.start();
    for (let i = 0; i < MAX_CORE_FAILURES; i++) {
      const core = silent.cores.at(-1)!;
      core.say({ t: 'ready', logFile: null });
      silent.advance(QUICK_CRASH_MS / 4);
      core.die('exited with code 70');
      if (i < MAX_CORE_FAILURES - 1) silent.restartWait();
    }
    expect(silent.supervisor.status).toMatchObject({ state: 'failed', reason: 'exited with code 70' });
  });
});
