// Our own stdio transport implementing the SDK's Transport interface. Compared with the SDK's
// StdioClientTransport it: spawns an argv array in its own process group with a minimal environment; reads
// stdout in shared time slices into bounded, ordered messages (stdout-messages.ts: an over-limit line is discarded
// and reported as `limit_exceeded` without ending the session, large lines are parsed on a worker, non-JSON lines
// are skipped and logged); keeps stderr in a 64 KiB ring; and releases the whole process group.
import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import { AppError, type ErrorEvidence } from '../../../shared/errors.js';
import { buildChildEnv, searchedPath } from './child-env.js';
import type { LineParsePool } from './line-parse-pool.js';
import { launchFailureReason } from './launch-failure.js';
import { BoundedLineReader, ByteRing } from './line-reader.js';
import { StdoutMessages } from './stdout-messages.js';
import { PacedReader } from './paced-reader.js';
import { groupAlive, processAlive, signalGroup, waitFor } from './process-group.js';
import { resolveLaunch } from './windows-command.js';
import type { OpenedTransport, TransportContext, TransportLog } from './transport-factory.js';
import type { ProcessSink } from '../sessions/process-record.js';
import { noteWireBytes } from './wire-size.js';

/** Bytes of stderr kept per transport. */
export const STDERR_RING_BYTES = 64 * 1024;
/** Characters of stderr kept from before the first message written to the child. */
const EARLY_STDERR_CHARS = 8 * 1024;
/** stderr lines included in evidence. */
export const STDERR_TAIL_LINES = 20;
/** A stderr line longer than this is logged in pieces. */
const STDERR_LOG_LINE_BYTES = 8 * 1024;
/**
 * How long an end of stdout may precede the child's exit and still count as an ordinary exit: a child that keeps
 * running longer after closing its output is treated as broken.
 */
export const STDOUT_EOF_GRACE_MS = 200;

/** How long release() waits at each step (close stdin, SIGTERM, SIGKILL). */
export interface ReleaseTimings {
  /** Wait after closing stdin before SIGTERM. */
  stdinGraceMs: number;
  /** Wait after SIGTERM before SIGKILL. */
  termGraceMs: number;
  /** Wait after SIGKILL before giving up. */
  killWaitMs: number;
}

/** Default release timings (seed 000: close stdin, ~2 s, SIGTERM, ~2 s, SIGKILL). */
export const DEFAULT_RELEASE_TIMINGS: ReleaseTimings = { stdinGraceMs: 2000, termGraceMs: 2000, killWaitMs: 3000 };

/** What a stdio transport is built from. */
export interface StdioTransportOptions {
  /** Server id, carried in errors. */
  serverId: string;
  /** Executable (looked up in the child's PATH, never through a shell). */
  command: string;
  /** Arguments, passed as an array. */
  args: string[];
  /** Working directory. */
  cwd?: string | undefined;
  /** Configured environment values (secrets resolved). */
  env: Record<string, string>;
  /** Pass the whole parent environment through. */
  inheritEnv: boolean;
  /** PATH from the login shell. */
  loginPath?: string | undefined;
  /** Longest stdout line accepted, in bytes. */
  messageBytes: number;
  /** Where large lines are parsed (default: the process's shared worker). */
  lineParser?: LineParsePool;
  /** Log sink. */
  log: TransportLog;
  /** Release step timings (tests shorten them). */
  release?: Partial<ReleaseTimings>;
  /** Told when the process group is spawned and when it is gone after release (the host's process record). */
  processes?: ProcessSink | undefined;
}

/** A stdio child speaking newline-delimited JSON-RPC. */
export class StdioTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T) => void) | undefined;

  readonly #opts: StdioTransportOptions;
  readonly #timings: ReleaseTimings;
  readonly #stderrRing = new ByteRing(STDERR_RING_BYTES);
  readonly #stdoutMessages: StdoutMessages;
  #stderrLine = new BoundedLineReader(STDERR_LOG_LINE_BYTES, {
    line: (bytes) => this.#opts.log('stderr', 'info', bytes.toString('utf8').replace(/\r$/, '')),
    oversized: () => undefined,
    oversizedEnd: (total) => this.#opts.log('stderr', 'info', `[a ${total}-byte stderr line was not logged; see the stderr ring]`),
  });
  #child: ChildProcess | undefined;
  #stdout: PacedReader | undefined;
  #pid: number | undefined;
  #childEnv: Record<string, string> = {};
  #started = false;
  #exited = false;
  #exitCode: number | null = null;
  #signal: NodeJS.Signals | null = null;
  #exitPromise: Promise<void> | undefined;
  #releasing = false;
  #releasePromise: Promise<void> | undefined;
  #closeFired = false;
  #spawnError: AppError | undefined;
  #stdinBroken = false;
  #protocolVersion: string | undefined;
  #outputClosed = false;
  /** Whether a message was written to the child yet, and whether the pipe was already closed when it was (EPIPE). */
  #wroteInput = false;
  #writes = 0;
  #inputRefused = false;
  /** stderr written before the first message (bounded): a stack trace here is a launch that failed. */
  #earlyStderr = '';
  /** Resolves when the full stdin pipe drains (shared by every send waiting for it). */
  #drained: Promise<void> | undefined;

  constructor(opts: StdioTransportOptions) {
    this.#opts = opts;
    this.#timings = { ...DEFAULT_RELEASE_TIMINGS, ...opts.release };
    this.#stdoutMessages = new StdoutMessages(opts, {
      message: (message) => this.onmessage?.(message),
      error: (error) => this.#emitError(error),
      closed: () => this.#closeFired,
    });
  }

  /** The child's pid once spawned (its process group id on Unix). The SDK also uses this to recognize a stdio transport. */
  get pid(): number | null {
    return this.#pid ?? null;
  }

  /** The child's stderr stream once spawned (read it through the log callback instead). */
  get stderr(): Readable | null {
    return this.#child?.stderr ?? null;
  }

  /** Protocol version the client negotiated (informational for stdio). */
  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

  /** Called by the SDK client once the protocol version is known. */
  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
  }

  /** Counters for diagnostics and tests. */
  get stats(): { oversizedLines: number; skippedLines: number; stderrBytes: number; peakLineBytes: number } {
    return { ...this.#stdoutMessages.stats, stderrBytes: this.#stderrRing.size };
  }

  /** Evidence for the connection doctor. */
  evidence(): ErrorEvidence {
    if (this.#spawnError?.evidence) return { ...this.#spawnError.evidence, stderrTail: this.#stderrRing.tail(STDERR_TAIL_LINES) };
    const evidence: ErrorEvidence = { stderrTail: this.#stderrRing.tail(STDERR_TAIL_LINES) };
    if (this.#outputClosed) evidence.outputClosed = true;
    if (this.#exited) {
      evidence.exitCode = this.#exitCode;
      evidence.signal = this.#signal;
      const launchFailed = launchFailureReason({
        stderrTail: evidence.stderrTail ?? [],
        stderrBeforeInput: this.#earlyStderr,
        exitedBeforeInput: !this.#wroteInput || this.#inputRefused,
      });
      if (launchFailed !== undefined) evidence.launchFailed = launchFailed;
    }
    return evidence;
  }

  /** The whole stderr ring as text (for the log view). */
  stderrText(): string {
    return this.#stderrRing.text();
  }

  /** Spawns the child; resolves once it is running, rejects with `command_not_found` or `spawn_failed`. */
  start(): Promise<void> {
    if (this.#started) return Promise.reject(new Error('StdioTransport already started'));
    this.#started = true;
    const o = this.#opts;
    this.#childEnv = buildChildEnv({ configured: o.env, inheritEnv: o.inheritEnv, loginPath: o.loginPath });
    if (o.cwd !== undefined) {
      let isDir = false;
      try {
        isDir = statSync(o.cwd).isDirectory();
      } catch {
        isDir = false;
      }
      if (!isDir) {
        return Promise.reject(
          this.#failSpawn(
            new AppError('spawn_failed', `The working directory ${o.cwd} does not exist`, {
              serverId: o.serverId,
              evidence: { phase: 'spawn' },
            }),
          ),
        );
      }
    }
    return new Promise<void>((resolve, reject) => {
      let child: ChildProcess;
      try {
        // On Windows: PATHEXT lookup, and .cmd/.bat through cmd.exe with arguments quoted so they cannot inject.
        const launch = resolveLaunch({ command: o.command, args: o.args, env: this.#childEnv, cwd: o.cwd });
        child = spawn(launch.file, launch.args, {
          cwd: o.cwd,
          env: this.#childEnv,
          stdio: ['pipe', 'pipe', 'pipe'],
          shell: false,
          detached: process.platform !== 'win32',
          windowsHide: true,
          windowsVerbatimArguments: launch.windowsVerbatimArguments,
        });
      } catch (error) {
        reject(this.#failSpawn(this.#spawnErrorFor(error)));
        return;
      }
      this.#child = child;
      child.once('error', (error) => {
        if (this.#pid === undefined) {
          reject(this.#failSpawn(this.#spawnErrorFor(error)));
        } else {
          this.#emitError(error);
        }
      });
      child.once('spawn', () => {
        this.#pid = child.pid;
        o.log('protocol', 'debug', `Started ${o.command} (pid ${child.pid ?? '?'})`);
        // Windows has no process groups to record (release ends the tree with taskkill instead).
        if (child.pid !== undefined && process.platform !== 'win32') {
          o.processes?.spawned({ pid: child.pid, serverId: o.serverId, command: o.command, args: o.args });
        }
        resolve();
      });
      this.#exitPromise = new Promise<void>((done) => {
        child.once('exit', (code, signal) => {
          this.#exited = true;
          this.#exitCode = code;
          this.#signal = signal;
          done();
          void this.#afterExit();
        });
      });
      if (child.stdout) this.#stdout = new PacedReader(child.stdout, (piece) => this.#stdoutMessages.push(piece));
      child.stdout?.on('end', () => void this.#onStdoutEnd());
      child.stdout?.on('error', (error) => this.#emitError(error));
      child.stderr?.on('data', (chunk: Buffer) => {
        if (!this.#wroteInput && this.#earlyStderr.length < EARLY_STDERR_CHARS) {
          this.#earlyStderr = (this.#earlyStderr + chunk.toString('utf8')).slice(0, EARLY_STDERR_CHARS);
        }
        this.#stderrRing.push(chunk);
        this.#stderrLine.push(chunk);
      });
      child.stderr?.on('error', () => undefined);
      child.stdin?.on('error', (error) => {
        // The read end was closed before our first message: the child never read it.
        if ((error as NodeJS.ErrnoException).code === 'EPIPE' && this.#writes === 1) this.#inputRefused = true;
        if (this.#stdinBroken || this.#releasing || this.#exited) return;
        this.#stdinBroken = true;
        this.#emitError(new AppError('connection_closed', `Writing to the server failed: ${error.message}`, { serverId: o.serverId }));
      });
    });
  }

  /** Writes one message as a line; waits for the pipe to drain when it is full. */
  async send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || this.#exited || this.#releasing || stdin.destroyed || !stdin.writable) {
      throw new AppError('connection_closed', 'Not connected: the server process is not running', {
        serverId: this.#opts.serverId,
        evidence: this.evidence(),
      });
    }
    const line = JSON.stringify(message) + '\n';
    // Its size for the protocol log, which records it once this returns (so the log need not count it again).
    noteWireBytes(message, Buffer.byteLength(line, 'utf8') - 1);
    this.#wroteInput = true;
    this.#writes++;
    if (stdin.write(line)) return;
    // Every send made while the pipe is full waits for the same drain (one listener, however many calls are queued).
    this.#drained ??= new Promise<void>((resolve) => {
      const done = (): void => {
        stdin.off('drain', done);
        stdin.off('close', done);
        this.#drained = undefined;
        resolve();
      };
      stdin.once('drain', done);
      stdin.once('close', done);
    });
    await this.#drained;
  }

  /** The server floods the session (its notification budget drops messages): read its output more slowly. */
  pace(): void {
    this.#stdout?.pace();
  }

  /** Same as release(): the SDK client calls this on close. */
  close(): Promise<void> {
    return this.release();
  }

  /**
   * Ends the child and every process of its group: close stdin, wait, SIGTERM the group, wait, SIGKILL the
   * group; resolves once no member is left running. Idempotent.
   */
  release(): Promise<void> {
    this.#releasePromise ??= this.#doRelease();
    return this.#releasePromise;
  }

  async #doRelease(): Promise<void> {
    this.#releasing = true;
    const child = this.#child;
    // child.pid is known as soon as spawn() returns; the 'spawn' event (this.#pid) may come later, and a release
    // in between (a connect cancelled at once) must still end the process instead of leaving it running.
    const pid = this.#pid ?? child?.pid;
    if (child !== undefined && pid !== undefined) {
      const t = this.#timings;
      const leaderGone = (): boolean => this.#exited;
      const allGone = (): boolean => this.#exited && !this.#groupAlive(pid);
      try {
        child.stdin?.end();
      } catch {
        // already closed
      }
      await waitFor(leaderGone, t.stdinGraceMs);
      if (!allGone()) {
        this.#signalAll(pid, 'SIGTERM');
        await waitFor(allGone, t.termGraceMs);
      }
      if (!allGone()) {
        this.#signalAll(pid, 'SIGKILL');
        await waitFor(allGone, t.killWaitMs);
      }
      if (!allGone()) this.#opts.log('protocol', 'error', `Process group ${pid} still has running members after SIGKILL`);
      else this.#opts.processes?.ended(pid);
      await Promise.race([this.#exitPromise, delay(t.killWaitMs)]);
      this.#stdout?.stop();
      child.stdout?.destroy();
      child.stderr?.destroy();
      child.stdin?.destroy();
    }
    this.#fireClose();
  }

  #groupAlive(pid: number): boolean {
    return process.platform === 'win32' ? processAlive(pid) : groupAlive(pid);
  }

  #signalAll(pid: number, signal: NodeJS.Signals): void {
    if (process.platform === 'win32') {
      // No process groups: taskkill /T ends the tree (/F on the second step).
      const args = ['/pid', String(pid), '/T', ...(signal === 'SIGKILL' ? ['/F'] : [])];
      try {
        spawn('taskkill', args, { stdio: 'ignore', shell: false, windowsHide: true }).on('error', () => undefined);
      } catch {
        // ignore
      }
      return;
    }
    if (!signalGroup(pid, signal) && !this.#exited) {
      try {
        process.kill(pid, signal);
      } catch {
        // gone
      }
    }
  }

  async #afterExit(): Promise<void> {
    const child = this.#child;
    // Let the pipes drain so the last stdout lines and stderr tail are complete, but do not wait for a
    // grandchild that holds them open.
    const drained = (s: Readable | null | undefined): Promise<void> =>
      !s || s.readableEnded || s.destroyed ? Promise.resolve() : new Promise<void>((r) => s.once('close', () => r()));
    await Promise.race([Promise.all([drained(child?.stdout), drained(child?.stderr)]), delay(250)]);
    this.#stdout?.drainAll();
    this.#stdoutMessages.flush();
    this.#stderrLine.flush();
    await this.#stdoutMessages.delivered();
    if (!this.#releasing) {
      const how = this.#signal !== null ? `was killed by ${this.#signal}` : `exited with code ${String(this.#exitCode)}`;
      this.#opts.log('protocol', 'warning', `The server process ${how}`);
      this.#emitError(
        new AppError('process_exited', `The server process ${how}`, { serverId: this.#opts.serverId, evidence: this.evidence() }),
      );
      this.#fireClose();
    }
  }

  /**
   * End of stdout. When the child exits too, the exit path reports it; a child that closed its output but keeps
   * running can never answer again, so the session ends at once: in-flight requests fail, and the process group is
   * released instead of waiting for every request's timeout.
   */
  async #onStdoutEnd(): Promise<void> {
    if (this.#releasing || this.#exited) return;
    await Promise.race([this.#exitPromise, delay(STDOUT_EOF_GRACE_MS)]);
    if (this.#releasing || this.#exited) return;
    this.#stdout?.drainAll();
    this.#stdoutMessages.flush();
    await this.#stdoutMessages.delivered();
    if (this.#releasing || this.#exited) return;
    this.#outputClosed = true;
    const message = 'The server closed its output (stdout) while still running, so it can no longer answer';
    this.#opts.log('protocol', 'error', `${message}; ending the session and stopping its processes`);
    this.#emitError(
      new AppError('connection_closed', message, {
        serverId: this.#opts.serverId,
        evidence: this.evidence(),
      }),
    );
    this.#fireClose();
    void this.release();
  }

  #fireClose(): void {
    if (this.#closeFired) return;
    this.#closeFired = true;
    this.onclose?.();
  }

  #failSpawn(error: AppError): AppError {
    this.#spawnError = error;
    this.#exited = true;
    this.#opts.log('protocol', 'error', error.message);
    return error;
  }

  #spawnErrorFor(error: unknown): AppError {
    const o = this.#opts;
    const err = error as NodeJS.ErrnoException;
    if (err?.code === 'ENOENT') {
      const dirs = o.command.includes('/') || o.command.includes('\\') ? [] : searchedPath(this.#childEnv);
      return new AppError('command_not_found', `Command not found: ${o.command}`, {
        serverId: o.serverId,
        evidence: { phase: 'spawn', searchedPath: dirs },
        cause: error,
      });
    }
    const message = err instanceof Error ? err.message : String(error);
    return new AppError('spawn_failed', `Could not start ${o.command}: ${message}`, {
      serverId: o.serverId,
      evidence: { phase: 'spawn' },
      cause: error,
    });
  }

  #emitError(error: Error): void {
    try {
      this.onerror?.(error);
    } catch {
      // a throwing handler must not break the read loop
    }
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** Opens a stdio transport for a server whose transport type is stdio. */
export function openStdioTransport(
  ctx: TransportContext,
  release?: Partial<ReleaseTimings>,
): OpenedTransport & { transport: StdioTransport } {
  const t = ctx.config.transport;
  if (t.type !== 'stdio') throw new AppError('internal', `openStdioTransport called for a ${t.type} server`, { serverId: ctx.config.id });
  const transport = new StdioTransport({
    serverId: ctx.config.id,
    command: t.command,
    args: t.args,
    cwd: t.cwd,
    env: ctx.env,
    inheritEnv: t.inheritEnv,
    loginPath: ctx.loginPath,
    messageBytes: ctx.config.limits.messageBytes,
    log: ctx.log,
    ...(release !== undefined ? { release } : {}),
    processes: ctx.processes,
  });
  return {
    transport,
    diagnostics: { evidence: () => transport.evidence() },
    release: () => transport.release(),
    pace: () => transport.pace(),
  };
}
