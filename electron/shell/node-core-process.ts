// Starts the core as a Node child process (headless mode): the same entry the desktop app starts as a utility
// process, with an IPC channel using structured clone. The core's stdout and stderr become lines of the shell's log.
import { fork } from 'node:child_process';
import type { CoreToShell, ShellToCore } from '../core-process/messages.js';
import type { CoreProcess } from './core-supervisor.js';
import { coreOutputLines } from './core-output-lines.js';

/** How a core process is started. */
export interface NodeCoreOptions {
  /** The built core entry (dist/electron/core.mjs). */
  entry: string;
  /** Each line the core writes to stderr or stdout. */
  onLine(line: string): void;
  /** Node flags for the core (running from source: a TypeScript loader). */
  execArgv?: string[];
  /** Extra environment (tests). */
  env?: NodeJS.ProcessEnv;
}

/** Starts one core process. */
export function startNodeCore(opts: NodeCoreOptions): CoreProcess {
  const child = fork(opts.entry, [], {
    serialization: 'advanced',
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: { ...process.env, ...opts.env },
    // The shell's own flags (a debugger port, say) are not the core's.
    execArgv: opts.execArgv ?? [],
  });
  child.stdout?.on('data', coreOutputLines(opts.onLine));
  child.stderr?.on('data', coreOutputLines(opts.onLine));
  // Sending to a core that just died fails asynchronously too; the exit is what the supervisor acts on.
  child.on('error', () => undefined);
  return {
    get pid() {
      return child.pid;
    },
    post: (message: ShellToCore) => {
      if (!child.connected) return false;
      return child.send(message, (err) => {
        if (err) opts.onLine(`a message to the core was not delivered: ${err.message}`);
      });
    },
    onMessage: (listener) => child.on('message', (message) => listener(message as CoreToShell)),
    onExit: (listener) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        listener(describeExit(child.exitCode, child.signalCode), killedFromOutside(child.signalCode));
        return;
      }
      child.once('exit', (code, signal) => listener(describeExit(code, signal), killedFromOutside(signal)));
    },
    kill: () => {
      child.kill('SIGKILL');
    },
  };
}

/** An exit in words. */
export function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  if (signal !== null) return `killed by ${signal}`;
  if (code === 70) return 'an unexpected error in the core';
  return `exited with code ${code ?? '?'}`;
}

/** Signals that end a process from outside; the others (SIGSEGV, SIGABRT, SIGBUS, SIGILL, SIGFPE) are its own failure. */
const OUTSIDE_SIGNALS: ReadonlySet<string> = new Set(['SIGKILL', 'SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT']);

/** Whether an exit was a kill from outside (a person, a script, the OOM killer) rather than the core failing. */
export function killedFromOutside(signal: NodeJS.Signals | null): boolean {
  return signal !== null && OUTSIDE_SIGNALS.has(signal);
}
