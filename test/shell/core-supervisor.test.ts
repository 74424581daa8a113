// The supervisor's restart pacing, with a stand-in core process (the supervisor's own CoreProcess interface) and a
// hand-driven clock: a core that keeps dying soon after it starts serving is restarted after longer and longer waits,
// a core that ran a while starts the waits afresh, and a core that keeps failing by itself in a short time is given
// up on even when it answered each time, and so is one killed from outside again and again (the system's out-of-memory
// killer), while a single kill is restarted at the shortest wait. Real core processes are in core-restart.test.ts.
import { describe, expect, it } from 'vitest';
import type { CoreToShell, ShellToCore } from '../../electron/core-process/messages.js';
import {
  CORE_FAILURE_WINDOW_MS,
  CORE_KILL_WINDOW_MS,
  CoreSupervisor,
  MAX_CORE_KILLS,
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
  #exit: ((why: string, killed: boolean) => void)[] = [];
  post(message: ShellToCore): boolean {
    this.posted.push(message);
    return true;
  }
  onMessage(listener: (m: CoreToShell) => void): void {
    this.#message.push(listener);
  }
  onExit(listener: (why: string, killed: boolean) => void): void {
    this.#exit.push(listener);
  }
  kill(): void {
    this.die('killed by SIGKILL');
  }
  say(m: CoreToShell): void {
    for (const l of this.#message) l(m);
  }
  /** Ends it: a kill from outside when `why` names SIGKILL, otherwise its own failure. */
  die(why: string): void {
    for (const l of this.#exit.splice(0)) l(why, why === 'killed by SIGKILL');
  }
  /** Says it is ready and answers one relayed call. */
  serveOneCall(supervisor: CoreSupervisor): void {
    this.say({ t: 'ready', logFile: null });
    void supervisor.dispatch('app.info', {});
    const invoke = this.posted.find((m) => m.t === 'invoke');
    expect(invoke).toBeDefined();
    this.say({ t: 'result', id: (invoke as { id: number }).id, envelope: { ok: true, value: {} } });
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
    logFile: '/data/logs/shell.log',
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
      core.die('killed by SIGKILL');
      waits.push(restartWait());
    }
    expect(waits).toEqual([...RESTART_BACKOFF_MS, RESTART_BACKOFF_MS.at(-1), RESTART_BACKOFF_MS.at(-1)]);
    // Never given up on: each core served and was killed from outside.
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
      core.serveOneCall(answering.supervisor);
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

  it('gives up on a core that answers and then crashes by itself, again and again in a short time, saying why with the log path', async () => {
    const { supervisor, cores, advance, restartWait } = harness();
    void supervisor.start();
    for (let i = 0; i < MAX_CORE_FAILURES; i++) {
      const core = cores.at(-1)!;
      core.serveOneCall(supervisor);
      advance(3_000); // it answered, ran a few seconds, and crashed
      core.die('crashed (SIGSEGV)');
      if (i < MAX_CORE_FAILURES - 1) {
        expect(supervisor.status.state).toBe('restarting');
        advance(restartWait());
      }
    }
    expect(cores).toHaveLength(MAX_CORE_FAILURES);
    expect(supervisor.status).toEqual({
      state: 'failed',
      reason: `crashed (SIGSEGV); it stopped ${MAX_CORE_FAILURES} times within ${CORE_FAILURE_WINDOW_MS / 1000} s`,
      logFile: '/data/logs/shell.log',
    });
    // Calls are refused at once with the reason and where to read more, rather than held for a core that will not come.
    const refused = await supervisor.dispatch('app.info', {});
    expect(refused).toMatchObject({ ok: false, error: { code: 'core_unavailable' } });
    const message = (refused as { error: { message: string } }).error.message;
    expect(message).toContain('crashed (SIGSEGV)');
    expect(message).toContain('/data/logs/shell.log');
  });

  it('keeps restarting a core that crashes by itself now and then, less often than the window allows', () => {
    const { supervisor, cores, advance, restartWait } = harness();
    void supervisor.start();
    const spacing = CORE_FAILURE_WINDOW_MS / (MAX_CORE_FAILURES - 1) + 1;
    for (let i = 0; i < MAX_CORE_FAILURES * 3; i++) {
      const core = cores.at(-1)!;
      core.serveOneCall(supervisor);
      advance(spacing);
      core.die('an unexpected error in the core');
      expect(supervisor.status.state, `crash ${i + 1}`).toBe('restarting');
      restartWait();
    }
  });
  it('gives up on cores killed from outside again and again in a short time (out of memory), saying so with the log path', async () => {
    const { supervisor, cores, advance, restartWait } = harness();
    void supervisor.start();
    for (let i = 0; i < MAX_CORE_KILLS; i++) {
      const core = cores.at(-1)!;
      core.serveOneCall(supervisor);
      advance(3_000); // it answered, ran a few seconds, and the system killed it
      core.die('killed by SIGKILL');
      if (i < MAX_CORE_KILLS - 1) {
        expect(supervisor.status.state, `kill ${i + 1}`).toBe('restarting');
        advance(restartWait());
      }
    }
    expect(cores).toHaveLength(MAX_CORE_KILLS);
    expect(supervisor.status).toMatchObject({ state: 'failed', logFile: '/data/logs/shell.log' });
    const reason = (supervisor.status as { reason: string }).reason;
    expect(reason).toContain(`killed from outside ${MAX_CORE_KILLS} times within ${CORE_KILL_WINDOW_MS / 1000} s`);
    expect(reason).toMatch(/kept killing the core.*out of memory/);
    const refused = await supervisor.dispatch('app.info', {});
    expect(refused).toMatchObject({ ok: false, error: { code: 'core_unavailable' } });
    expect((refused as { error: { message: string } }).error.message).toContain('/data/logs/shell.log');
  });

  it('restarts a single kill at once, and keeps restarting kills spread wider than the window', () => {
    const { supervisor, cores, advance, restartWait } = harness();
    void supervisor.start();
    const spacing = CORE_KILL_WINDOW_MS / (MAX_CORE_KILLS - 1) + 1;
    for (let i = 0; i < MAX_CORE_KILLS * 2; i++) {
      const core = cores.at(-1)!;
      core.serveOneCall(supervisor);
      advance(spacing);
      core.die('killed by SIGKILL');
      expect(supervisor.status.state, `kill ${i + 1}`).toBe('restarting');
      // Each core ran a while before it was killed: the shortest wait every time.
      expect(restartWait()).toBe(RESTART_BACKOFF_MS[0]);
    }
  });
});
