// Starts the built headless Switchboard (`node dist/electron/headless.mjs --data-dir DIR --port N --json`) in its own
// process group and stops it the way Ctrl-C would, then checks that it exited cleanly and left nothing running.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { headlessEntry, switchboardRoot } from './app-root.js';
import { ProcessWatch } from './process-tree.js';
import { stopAndCheck, type StopReport } from './stop-check.js';

export type { StopReport } from './stop-check.js';

/** How to start one headless Switchboard. */
export interface HeadlessLaunchOptions {
  /** Its data folder (created when missing). */
  dataDir: string;
  /** Port on 127.0.0.1 (default 0: a free one). */
  port?: number;
  /** Extra environment for the process. */
  env?: Record<string, string>;
  /** Keep secrets in memory only, never in the machine's keychain (default true). */
  memoryCredentials?: boolean;
  /** The program to run instead of the built entry (the kit's own tests use a stand-in). */
  entry?: string;
  /** How long to wait for the URL line (default 60 s). */
  startTimeoutMs?: number;
  /** How long Switchboard may take to quit after SIGTERM before it is killed (default 20 s). */
  stopTimeoutMs?: number;
  /** How often the processes it owns are sampled while it runs (default 500 ms). */
  sampleEveryMs?: number;
}

/** A running headless Switchboard. */
export interface HeadlessApp {
  /** The page address, carrying the access token in its fragment. */
  url: string;
  /** The bound port on 127.0.0.1. */
  port: number;
  /** The per-launch access token. */
  token: string;
  /** The data folder. */
  dataDir: string;
  /** The process id. */
  pid: number;
  /** Everything it printed so far (stdout and stderr, the last 1 MiB). */
  output(): string;
  /** Stops it (SIGTERM, then SIGKILL after the stop timeout) and reports what was wrong. Safe to call twice. */
  stop(): Promise<StopReport>;
}

const OUTPUT_LIMIT = 1024 * 1024;

/** Starts Switchboard in headless mode and resolves once it printed its URL. */
export async function launchHeadless(opts: HeadlessLaunchOptions): Promise<HeadlessApp> {
  const entry = opts.entry ?? headlessEntry(switchboardRoot());
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  if (opts.memoryCredentials !== false) env['SWITCHBOARD_CREDENTIALS'] = 'memory';
  Object.assign(env, opts.env);
  const child = spawn(process.execPath, [entry, '--data-dir', opts.dataDir, '--port', String(opts.port ?? 0), '--json'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group: a stop reaches everything in it, never the test runner
  });
  if (child.pid === undefined) {
    await new Promise((r) => child.once('error', r));
    throw new Error(`Could not start ${process.execPath} ${entry}`);
  }
  const pid = child.pid;
  const watch = new ProcessWatch(pid);
  const sampler = setInterval(() => watch.sample(), opts.sampleEveryMs ?? 500);
  sampler.unref();

  let output = '';
  let stdoutText = '';
  const append = (chunk: string): void => {
    output += chunk;
    if (output.length > OUTPUT_LIMIT) output = output.slice(-OUTPUT_LIMIT);
  };
  child.stderr.setEncoding('utf8').on('data', append);
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    append(d);
    if (stdoutText.length < 64 * 1024) stdoutText += d;
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );

  let report: Promise<StopReport> | undefined;
  const stop = (): Promise<StopReport> =>
    (report ??= stopAndCheck({
      pid,
      watch,
      exited,
      running: () => child.exitCode === null && child.signalCode === null,
      requestStop: () => void child.kill('SIGTERM'),
      timeoutMs: opts.stopTimeoutMs ?? 20_000,
    }).finally(() => clearInterval(sampler)));

  const info = await new Promise<{ url: string; port: number; token: string }>((resolve, reject) => {
    const timeout = opts.startTimeoutMs ?? 60_000;
    const fail = (why: string): void => {
      cleanup();
      void stop().finally(() => reject(new Error(`${why}\n--- output ---\n${output.slice(-8000)}`)));
    };
    const timer = setTimeout(() => fail(`Switchboard did not print its address within ${timeout / 1000} s`), timeout);
    const onExit = (code: number | null, signal: string | null): void =>
      fail(`Switchboard exited during start-up (${code === null ? `signal ${signal}` : `code ${code}`})`);
    const onData = (): void => {
      // Only complete lines: the JSON line is read once its newline arrived.
      const line = stdoutText
        .split('\n')
        .slice(0, -1)
        .find((l) => l.startsWith('{'));
      if (!line) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        return fail(`Switchboard printed an unreadable start-up line: ${line.slice(0, 200)}`);
      }
      const { url, port, token } = parsed as { url?: unknown; port?: unknown; token?: unknown };
      if (typeof url !== 'string' || typeof port !== 'number' || typeof token !== 'string') {
        return fail(`Switchboard's start-up line lacks url, port or token: ${line.slice(0, 200)}`);
      }
      cleanup();
      resolve({ url, port, token });
    };
    function cleanup(): void {
      clearTimeout(timer);
      child.off('exit', onExit);
      child.stdout.off('data', onData);
    }
    child.once('exit', onExit);
    child.stdout.on('data', onData);
  });

  return { ...info, dataDir: opts.dataDir, pid, output: () => output, stop };
}
