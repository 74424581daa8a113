// The shell's side of the core: starts the core process, relays the contract to it (calls, results, events) without
// knowing any method, answers what the core borrows from the shell, and supervises it. When the core dies the calls
// in flight end with `core_restarted`, a new core starts after a backoff and hears what the shell knows (who is
// looking, where the sandbox is, that its predecessor stopped and why); after repeated failures in a short time the
// shell stops trying and says so, and calls end with `core_unavailable` instead of waiting.
import type { EventKey, EventMap, IpcEnvelope } from '../../shared/contract.js';
import type { CoreStatus } from '../../shared/domains/app.js';
import { AppError } from '../../shared/errors.js';
import type { SandboxPageInput } from '../core/apps/sandbox-page.js';
import type { ShutdownReport } from '../core/lifecycle/shutdown.js';
import type { ViewerState } from '../core/presence.js';
import type { CoreInit, CoreToShell, ShellRequest, ShellToCore } from '../core-process/messages.js';

/** One running core process, as the supervisor drives it (a Node child or an Electron utility process). */
export interface CoreProcess {
  /** Its pid, once known. */
  readonly pid: number | undefined;
  /** Sends one message; false when it could not be sent. */
  post(message: ShellToCore): boolean;
  /** Every message from the core. */
  onMessage(listener: (message: CoreToShell) => void): void;
  /**
   * Once, when the process has ended: why, in words ("exited with code 1", "killed by SIGKILL"), and whether it was
   * ended from outside (a kill signal: a person, a script, the system's OOM killer) rather than failing by itself.
   */
  onExit(listener: (why: string, killed: boolean) => void): void;
  /** Ends it at once (SIGKILL). */
  kill(): void;
}

/** A listener of the contract's events (the bridge, Electron's event forwarder). */
export type CoreEventListener = <E extends EventKey>(event: E, payload: EventMap[E]) => void;

/** What the supervisor needs from its shell. */
export interface CoreSupervisorOptions {
  /** Starts a core process. */
  launch(): CoreProcess;
  /** The start-up facts of every core this shell starts (read at each start). */
  init(): Omit<CoreInit, 't' | 'notices' | 'replacesCrashedCore'>;
  /** Answers what a core asks of the shell (the browser, an app window, safeStorage). */
  serve(request: ShellRequest): Promise<unknown>;
  /** The shell's log. */
  log(level: 'info' | 'warn' | 'error', message: string): void;
  /** The shell's log file, named in what the person is told. */
  logFile: string | null;
  /** Waits between restarts, one per consecutive failure (the last repeats). */
  backoffMs?: readonly number[];
  /** Failures within `failureWindowMs` after which the shell stops restarting. */
  maxFailures?: number;
  /** Kills from outside within `killWindowMs` after which the shell stops restarting. */
  maxKills?: number;
  /** The window kills from outside are counted in. */
  killWindowMs?: number;
  /** The window failures are counted in. */
  failureWindowMs?: number;
  /** How long a core must have served for its death to restart the backoff from the shortest wait. */
  stableMs?: number;
  /** How long a core may take to say it is ready before it counts as failed. */
  startTimeoutMs?: number;
  /** Timers and clock (tests). */
  setTimer?: (run: () => void, ms: number) => { cancel(): void };
  now?: () => number;
}

/** Waits between restarts: quick at first (a one-off crash costs little), longer when it keeps happening. */
export const RESTART_BACKOFF_MS = [200, 500, 1000, 2000, 4000] as const;
/**
 * Failures in the window after which the shell gives up: cores that never served, and cores that served but then
 * failed by themselves (a crash loop that answers a call each time is still a crash loop).
 */
export const MAX_CORE_FAILURES = 5;
/** The window failures are counted in. */
export const CORE_FAILURE_WINDOW_MS = 60_000;
/**
 * Kills from outside (SIGKILL and the like) of cores that had served, in the window, after which the shell gives up:
 * one kill -9 is restarted at once, but the system's out-of-memory killer ending every new core is a loop too. Each
 * restart waits longer (up to the backoff's last wait), so ten kills take about a minute of cores that live a few
 * seconds each; the window is long enough to catch cores that live longer before they are killed.
 */
export const MAX_CORE_KILLS = 10;
/** The window kills from outside are counted in. */
export const CORE_KILL_WINDOW_MS = 5 * 60_000;
/** A core that dies sooner than this after saying it is ready, having answered no call, counts as failing to start. */
export const QUICK_CRASH_MS = 1000;
/** A core that served this long before it died starts the backoff afresh; one that died sooner waits longer each time. */
export const STABLE_CORE_MS = 30_000;
/** How long a core may take to start. */
export const CORE_START_TIMEOUT_MS = 30_000;
/** Calls held while a core starts (more are refused). */
const MAX_HELD_CALLS = 1000;
/** Install links held while a core starts. */
const MAX_HELD_LINKS = 20;
/** The notice a restarted core shows. */
export const CORE_RESTARTED_NOTICE = 'core-restarted';

type Held = { method: string; args: unknown; resolve: (envelope: IpcEnvelope<unknown>) => void };

const failure = (code: 'core_restarted' | 'core_unavailable', message: string): IpcEnvelope<unknown> => ({
  ok: false,
  error: new AppError(code, message).toData(),
});

/** Starts, relays to and restarts the core process. */
export class CoreSupervisor {
  readonly #opts: CoreSupervisorOptions;
  readonly #listeners = new Set<CoreEventListener>();
  readonly #presence = new Map<string, ViewerState>();
  readonly #sandbox = new Map<string, SandboxPageInput>();
  readonly #inFlight = new Map<number, (envelope: IpcEnvelope<unknown>) => void>();
  readonly #held: Held[] = [];
  readonly #links: string[] = [];
  readonly #failures: number[] = [];
  /** When cores that had served were killed from outside, within the kill window. */
  readonly #kills: number[] = [];
  #core: CoreProcess | undefined;
  #ready = false;
  #status: CoreStatus;
  #nextId = 1;
  #consecutive = 0;
  #lastReason: string | undefined;
  /** What the current core said when it could not start (it exits right after). */
  #startError: string | undefined;
  #stopping: Promise<ShutdownReport | undefined> | undefined;
  #restartTimer: { cancel(): void } | undefined;
  #firstReady: Promise<boolean>;
  #settleFirst: (ok: boolean) => void = () => undefined;
  #coreLogFile: string | null = null;
  #readyAt = 0;
  /** Calls the current core answered: a core that answered one served, however soon it then died. */
  #answered = 0;

  constructor(opts: CoreSupervisorOptions) {
    this.#opts = opts;
    this.#status = { state: 'restarting', logFile: opts.logFile };
    this.#firstReady = new Promise((resolve) => (this.#settleFirst = resolve));
  }

  /** Starts the first core; resolves true once it is ready, false when the shell gave up on it. */
  start(): Promise<boolean> {
    if (!this.#core && !this.#stopping) this.#spawn(false);
    return this.#firstReady;
  }

  /** Where the core stands. */
  get status(): CoreStatus {
    return this.#status;
  }

  /** The running core's pid (tests, the shell's log). */
  get pid(): number | undefined {
    return this.#ready ? this.#core?.pid : undefined;
  }

  /** The core's own log file, once a core has said where it is. */
  get coreLogFile(): string | null {
    return this.#coreLogFile;
  }

  /** Relays one contract call; held while a core starts, refused once the shell has given up. */
  dispatch = (method: string, args: unknown): Promise<IpcEnvelope<unknown>> => {
    if (this.#stopping) return Promise.resolve(failure('core_unavailable', 'Switchboard is closing'));
    if (this.#status.state === 'failed') return Promise.resolve(failure('core_unavailable', this.#failedMessage()));
    if (!this.#ready) {
      if (this.#held.length >= MAX_HELD_CALLS) return Promise.resolve(failure('core_unavailable', "Switchboard's core is starting"));
      return new Promise((resolve) => this.#held.push({ method, args, resolve }));
    }
    return this.#send(method, args);
  };

  /** Hears every contract event, the shell's own `app.coreStatus` included. */
  subscribe(listener: CoreEventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The shell's record of who is looking, mirrored into every core. */
  readonly presence = {
    set: (viewer: string, state: ViewerState | undefined): void => {
      if (state === undefined) this.#presence.delete(viewer);
      else this.#presence.set(viewer, state);
      if (this.#ready) this.#core?.post({ t: 'presence', viewer, state: state ?? null });
    },
  };

  /** An open launch's sandbox policy, answered without a round trip (the browser asks synchronously). */
  sandboxInput(launchId: string): SandboxPageInput | undefined {
    return this.#sandbox.get(launchId);
  }

  /** An install link the shell received: to the core now, or once it is ready. */
  receiveLink(link: string): void {
    if (this.#ready && this.#core?.post({ t: 'link', link })) return;
    if (this.#links.length < MAX_HELD_LINKS) this.#links.push(link);
  }

  /** Asks the core to shut down, waits `timeoutMs` plus a grace, then ends it; resolves with its report if it sent one. */
  shutdown(timeoutMs: number, graceMs = 500): Promise<ShutdownReport | undefined> {
    this.#stopping ??= this.#shutdown(timeoutMs, graceMs);
    return this.#stopping;
  }

  async #shutdown(timeoutMs: number, graceMs: number): Promise<ShutdownReport | undefined> {
    this.#restartTimer?.cancel();
    for (const held of this.#held.splice(0)) held.resolve(failure('core_unavailable', 'Switchboard is closing'));
    const core = this.#core;
    if (!core) return undefined;
    const setTimer = this.#timer();
    return new Promise((resolve) => {
      let report: ShutdownReport | undefined;
      let done = false;
      const finish = (): void => {
        if (done) return;
        done = true;
        timer.cancel();
        resolve(report);
      };
      core.onMessage((m) => {
        if (m.t === 'stopped') report = m.report;
      });
      core.onExit(finish);
      const timer = setTimer(() => {
        this.#opts.log('warn', `the core did not stop within ${timeoutMs + graceMs} ms; ending it`);
        core.kill();
        finish();
      }, timeoutMs + graceMs);
      if (!core.post({ t: 'shutdown', timeoutMs })) {
        core.kill();
        finish();
      }
    });
  }

  #timer(): NonNullable<CoreSupervisorOptions['setTimer']> {
    return (
      this.#opts.setTimer ??
      ((run, ms) => {
        const t = setTimeout(run, ms);
        return { cancel: () => clearTimeout(t) };
      })
    );
  }

  #send(method: string, args: unknown): Promise<IpcEnvelope<unknown>> {
    const core = this.#core;
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#inFlight.set(id, resolve);
      let posted = false;
      try {
        posted = core?.post({ t: 'invoke', id, method, args }) ?? false;
      } catch (err) {
        this.#inFlight.delete(id);
        const why = err instanceof Error ? err.message : String(err);
        resolve({
          ok: false,
          error: new AppError('invalid_request', `The call's arguments could not be sent to the core: ${why}`).toData(),
        });
        return;
      }
      if (!posted) {
        this.#inFlight.delete(id);
        resolve(failure('core_restarted', "Switchboard's core stopped before the call reached it"));
      }
    });
  }

  #emit<E extends EventKey>(event: E, payload: EventMap[E]): void {
    for (const listener of this.#listeners) {
      try {
        listener(event, payload);
      } catch (err) {
        this.#opts.log('error', `a listener of ${event} failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  #setStatus(status: CoreStatus): void {
    this.#status = status;
    this.#emit('app.coreStatus', status);
  }

  #failedMessage(): string {
    const log = this.#opts.logFile ? ` (log: ${this.#opts.logFile})` : '';
    return `Switchboard's core kept stopping (${this.#lastReason ?? 'unknown reason'}) and was not restarted again${log}. Quit and start Switchboard again.`;
  }

  #spawn(afterCrash: boolean): void {
    const timer = this.#timer();
    let core: CoreProcess;
    try {
      core = this.#opts.launch();
    } catch (err) {
      this.#failed(`it could not be started: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    this.#core = core;
    this.#ready = false;
    let exited = false;
    const startTimer = timer(() => {
      if (this.#ready || exited) return;
      this.#opts.log('error', `the core did not start within ${this.#opts.startTimeoutMs ?? CORE_START_TIMEOUT_MS} ms; ending it`);
      core.kill();
    }, this.#opts.startTimeoutMs ?? CORE_START_TIMEOUT_MS);

    core.onMessage((m) => this.#hear(core, m, startTimer));
    core.onExit((why, killed) => {
      exited = true;
      startTimer.cancel();
      if (this.#core === core) this.#died(core, why, killed);
    });
    const log = this.#opts.logFile ? ` Its last words are in ${this.#opts.logFile}.` : '';
    const notices = afterCrash
      ? [
          {
            id: CORE_RESTARTED_NOTICE,
            level: 'warning' as const,
            message: `Switchboard's core stopped (${this.#lastReason ?? 'unknown reason'}) and was restarted.${log} Calls that were running then ended; run them again. History is saved a moment after each call, so the last calls before the stop may be missing from it.`,
          },
        ]
      : [];
    core.post({ t: 'init', ...this.#opts.init(), notices, replacesCrashedCore: afterCrash });
  }

  #hear(core: CoreProcess, m: CoreToShell, startTimer: { cancel(): void }): void {
    if (this.#core !== core) return;
    switch (m.t) {
      case 'ready': {
        startTimer.cancel();
        this.#ready = true;
        this.#readyAt = (this.#opts.now ?? Date.now)();
        this.#answered = 0;
        this.#coreLogFile = m.logFile;
        for (const [viewer, state] of this.#presence) core.post({ t: 'presence', viewer, state });
        for (const link of this.#links.splice(0)) core.post({ t: 'link', link });
        for (const held of this.#held.splice(0)) void this.#send(held.method, held.args).then(held.resolve);
        this.#opts.log('info', `the core is running (pid ${core.pid ?? '?'})`);
        this.#setStatus({ state: 'running', logFile: this.#opts.logFile });
        this.#settleFirst(true);
        break;
      }
      case 'failed':
        this.#startError = m.message;
        this.#opts.log('error', `the core could not start: ${m.message}`);
        break;
      case 'result': {
        const settle = this.#inFlight.get(m.id);
        this.#inFlight.delete(m.id);
        if (settle) this.#answered++;
        settle?.(m.envelope);
        break;
      }
      case 'event':
        this.#emit(m.key, m.payload as EventMap[typeof m.key]);
        break;
      case 'sandboxLaunch':
        if (m.input) this.#sandbox.set(m.id, m.input);
        else this.#sandbox.delete(m.id);
        break;
      case 'request':
        void this.#answer(core, m);
        break;
      case 'stopped':
        break;
    }
  }

  async #answer(core: CoreProcess, m: Extract<CoreToShell, { t: 'request' }>): Promise<void> {
    const { id, t: _t, ...request } = m;
    try {
      core.post({ t: 'reply', id, ok: true, value: await this.#opts.serve(request) });
    } catch (err) {
      core.post({ t: 'reply', id, ok: false, value: err instanceof Error ? err.message : String(err) });
    }
  }

  #died(core: CoreProcess, why: string, killed: boolean): void {
    const wasReady = this.#ready;
    this.#ready = false;
    this.#core = undefined;
    this.#sandbox.clear();
    for (const settle of this.#inFlight.values()) {
      settle(failure('core_restarted', `Switchboard's core stopped (${why}) while this was running; it is being restarted`));
    }
    this.#inFlight.clear();
    if (this.#stopping) return;
    // A core that said why it could not start gives that reason; otherwise the exit is the reason.
    this.#lastReason = this.#startError !== undefined ? `it could not start: ${this.#startError}` : why;
    this.#startError = undefined;
    this.#opts.log('error', `the core (pid ${core.pid ?? '?'}) stopped: ${this.#lastReason}`);
    const now = (this.#opts.now ?? Date.now)();
    const window = this.#opts.failureWindowMs ?? CORE_FAILURE_WINDOW_MS;
    // A core that never served counts towards giving up, and so does one that served and then failed by itself: a
    // defect that brings down every core soon after it answers is a loop to stop, not to run forever. A core that
    // served and was killed from outside is restarted at once, and counted apart: many such kills in a short time are
    // the system ending every new core (out of memory), a loop too.
    const served = wasReady && (this.#answered > 0 || now - this.#readyAt >= QUICK_CRASH_MS);
    if (!served || !killed) this.#failures.push(now);
    else this.#kills.push(now);
    while (this.#failures.length > 0 && (this.#failures[0] ?? now) < now - window) this.#failures.shift();
    const killWindow = this.#opts.killWindowMs ?? CORE_KILL_WINDOW_MS;
    while (this.#kills.length > 0 && (this.#kills[0] ?? now) < now - killWindow) this.#kills.shift();
    // The wait grows with every death of a core that did not run for long (a crash loop, even one that serves a
    // moment each time, slows down); a core that ran a while starts it afresh.
    const stable = wasReady && now - this.#readyAt >= (this.#opts.stableMs ?? STABLE_CORE_MS);
    this.#consecutive = stable ? 1 : this.#consecutive + 1;
    if (this.#failures.length >= (this.#opts.maxFailures ?? MAX_CORE_FAILURES)) {
      // A core that served each time says how often it stopped, so the reason reads as the loop it is.
      const loop = served ? `; it stopped ${this.#failures.length} times within ${Math.round(window / 1000)} s` : '';
      this.#failed(`${this.#lastReason}${loop}`);
      return;
    }
    if (this.#kills.length >= (this.#opts.maxKills ?? MAX_CORE_KILLS)) {
      // Something on this computer keeps ending every new core: most often the system running out of memory.
      this.#failed(
        `${this.#lastReason}; it was killed from outside ${this.#kills.length} times within ${Math.round(killWindow / 1000)} s. ` +
          'Something on this computer kept killing the core, most often the system running out of memory (its out-of-memory killer)',
      );
      return;
    }
    this.#setStatus({ state: 'restarting', reason: this.#lastReason, logFile: this.#opts.logFile });
    const backoff = this.#opts.backoffMs ?? RESTART_BACKOFF_MS;
    const wait = backoff[Math.min(this.#consecutive - 1, backoff.length - 1)] ?? 1000;
    this.#restartTimer = this.#timer()(() => {
      this.#restartTimer = undefined;
      if (!this.#stopping) this.#spawn(true);
    }, wait);
  }

  #failed(why: string): void {
    this.#lastReason = why;
    this.#opts.log('error', `giving up on the core after ${this.#failures.length + this.#kills.length} failures: ${why}`);
    this.#setStatus({ state: 'failed', reason: why, logFile: this.#opts.logFile });
    for (const held of this.#held.splice(0)) held.resolve(failure('core_unavailable', this.#failedMessage()));
    this.#settleFirst(false);
  }
}
