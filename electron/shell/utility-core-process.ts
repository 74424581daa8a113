// Starts the core as an Electron utility process (the desktop app): the same entry headless mode forks as a Node
// child, reached through its parent port with structured clone. Electron is taken through the narrow `UtilityForker`
// interface so this module is checked without an Electron binary. Electron's exit event carries only a code, so the
// reason the process went (killed, crashed, out of memory) comes from the app's `child-process-gone`, when it has
// arrived by the time the exit is reported.
import type { CoreToShell, ShellToCore } from '../core-process/messages.js';
import { coreOutputLines } from './core-output-lines.js';
import type { CoreProcess } from './core-supervisor.js';

/** The name the core's utility process carries in Electron's process events and task manager. */
export const CORE_SERVICE_NAME = 'Switchboard core';

/** The parts of an Electron `UtilityProcess` this launcher uses. */
export interface UtilityChild {
  readonly pid: number | undefined;
  readonly stdout: NodeJS.ReadableStream | null;
  readonly stderr: NodeJS.ReadableStream | null;
  postMessage(message: unknown): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  kill(): boolean;
}

/** The part of Electron's `utilityProcess` this launcher uses. */
export interface UtilityForker {
  fork(
    modulePath: string,
    args: string[],
    options: { serviceName: string; stdio: 'pipe'; env: NodeJS.ProcessEnv; execArgv: string[] },
  ): UtilityChild;
}

/** Why Electron says a child process went (its `child-process-gone` details). */
export interface GoneDetails {
  reason: string;
  exitCode: number;
}

/** How the core's utility process is started. */
export interface UtilityCoreOptions {
  forker: UtilityForker;
  /** The built core entry (dist/electron/core.mjs). */
  entry: string;
  /** Each line the core writes to stdout or stderr. */
  onLine(line: string): void;
  /** Extra environment. */
  env?: NodeJS.ProcessEnv;
  /** Sends a signal to a pid (ending the core at once; Electron's own kill asks it to stop). */
  signal?: (pid: number, signal: NodeJS.Signals) => void;
  /** Waits one turn before reporting an exit, so a `child-process-gone` sent with it is read first. */
  defer?: (run: () => void) => void;
}

/** A started core, plus where the shell reports Electron's `child-process-gone` for it. */
export interface UtilityCore extends CoreProcess {
  /** Electron said this process went, and why. */
  noteGone(details: GoneDetails): void;
}

/** Starts one core utility process. */
export function startUtilityCore(opts: UtilityCoreOptions): UtilityCore {
  const child = opts.forker.fork(opts.entry, [], {
    serviceName: CORE_SERVICE_NAME,
    stdio: 'pipe',
    env: { ...process.env, ...opts.env },
    // The shell's own flags (an inspector port, say) are not the core's.
    execArgv: [],
  });
  const lines = coreOutputLines(opts.onLine);
  child.stdout?.on('data', lines);
  child.stderr?.on('data', lines);
  const signal = opts.signal ?? ((pid: number, sig: NodeJS.Signals) => process.kill(pid, sig));
  const defer = opts.defer ?? ((run: () => void) => setImmediate(run));

  let exited: string | undefined;
  // Electron's 'killed' is a signal from outside (SIGKILL or SIGTERM); 'crashed' and 'oom' are the core's own failure.
  let killed = false;
  let gone: GoneDetails | undefined;
  const exitListeners: ((why: string, killed: boolean) => void)[] = [];
  child.on('exit', (code) => {
    defer(() => {
      exited = describeUtilityExit(code, gone);
      killed = gone?.reason === 'killed';
      for (const listener of exitListeners.splice(0)) listener(exited, killed);
    });
  });

  return {
    get pid() {
      return child.pid;
    },
    post: (message: ShellToCore) => {
      if (exited !== undefined) return false;
      // A message that cannot be cloned throws, as Node's IPC does: the supervisor turns it into an error answer.
      child.postMessage(message);
      return true;
    },
    onMessage: (listener) => void child.on('message', (message) => listener(message as CoreToShell)),
    onExit: (listener) => {
      if (exited !== undefined) listener(exited, killed);
      else exitListeners.push(listener);
    },
    kill: () => {
      const pid = child.pid;
      if (exited !== undefined) return;
      if (pid === undefined) {
        child.kill();
        return;
      }
      try {
        signal(pid, 'SIGKILL');
      } catch {
        // Already gone: its exit is on the way.
      }
    },
    noteGone: (details) => {
      gone = details;
    },
  };
}

/** A utility process's end in words, as the person reads it in the restart notice. */
export function describeUtilityExit(code: number, gone: GoneDetails | undefined): string {
  // On POSIX Chromium reports a process ended by a signal with the signal's number as its code.
  const signalName =
    process.platform !== 'win32' && gone && (gone.reason === 'killed' || gone.reason === 'crashed') ? posixSignal(code) : undefined;
  if (gone?.reason === 'oom') return 'it ran out of memory';
  if (gone?.reason === 'killed') return signalName ? `killed by ${signalName}` : 'it was killed';
  if (gone?.reason === 'crashed') return signalName ? `crashed (${signalName})` : 'it crashed';
  if (gone?.reason === 'launch-failed') return 'it could not be launched';
  if (code === 70) return 'an unexpected error in the core';
  return `exited with code ${code}`;
}

const SIGNALS: Record<number, NodeJS.Signals> = { 6: 'SIGABRT', 9: 'SIGKILL', 11: 'SIGSEGV', 15: 'SIGTERM', 4: 'SIGILL', 7: 'SIGBUS' };

function posixSignal(code: number): NodeJS.Signals | undefined {
  return SIGNALS[code];
}
