// Headless Switchboard from source for benchmarks: the launcher (shell) as a child process with its core, the bridge
// a page uses (a WebSocket speaking the typed contract), the shell's and core's pids, and optionally the shell's own
// event-loop delay (loop-probe.mjs, preloaded into the shell only).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { listProcesses } from '../../testing/process-tree.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const probe = fileURLToPath(new URL('./loop-probe.mjs', import.meta.url));

/** Event-loop delay figures, in ms. */
export interface LoopFigures {
  p50: number;
  p99: number;
  max: number;
}

/** A running headless shell and its bridge. */
export interface BenchHeadless {
  shell: ChildProcess;
  rpc<T = unknown>(method: string, params: unknown): Promise<T>;
  events: { method: string; params: unknown }[];
  /** The core's pid (the shell's child running the core entry). */
  corePid(): number | undefined;
  /** Starts a fresh event-loop delay window in the shell (with `probe`). */
  resetLoop(): void;
  /** The shell's event-loop delay since the last reset (with `probe`). */
  readLoop(): Promise<LoopFigures>;
  stop(): Promise<void>;
}

/** Starts headless Switchboard on `dataDir` (memory credentials) and connects a visible bridge to it. */
export async function startBenchHeadless(dataDir: string, opts: { probe?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<BenchHeadless> {
  // BENCH_HEADLESS=built runs the bundles as shipped (npm run build:node first); otherwise the sources through tsx,
  // whose start-up transpiling makes every core start slower than a person's.
  const built = process.env.BENCH_HEADLESS === 'built';
  const entry = built ? ['dist/electron/headless.mjs'] : ['--import', 'tsx', 'electron/headless.ts'];
  const shell = spawn(process.execPath, [...(opts.probe ? ['--import', probe] : []), ...entry, '--data-dir', dataDir, '--json'], {
    cwd: root,
    env: { ...process.env, SWITCHBOARD_CREDENTIALS: 'memory', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let err = '';
  shell.stderr!.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
  const { port, token } = await new Promise<{ port: number; token: string }>((resolve, reject) => {
    createInterface({ input: shell.stdout! }).once('line', (line) => resolve(JSON.parse(line) as { port: number; token: string }));
    shell.once('exit', (code) => reject(new Error(`headless exited with ${String(code)}: ${err}`)));
  });
  const ws = new WebSocket(`ws://127.0.0.1:${port}/bridge?token=${token}`, { headers: { Origin: `http://127.0.0.1:${port}` } });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'bridge/visibility', params: { visible: true } }));
  let next = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const events: BenchHeadless['events'] = [];
  ws.on('message', (data: Buffer) => {
    const msg = JSON.parse(data.toString()) as {
      id?: number;
      method?: string;
      params?: unknown;
      result?: unknown;
      error?: { message: string };
    };
    if (typeof msg.id === 'number') {
      const p = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) p?.reject(new Error(msg.error.message));
      else p?.resolve(msg.result);
    } else if (msg.method) events.push({ method: msg.method, params: msg.params });
  });
  const loops: ((f: LoopFigures) => void)[] = [];
  shell.on('message', (m: { t?: string } & LoopFigures) => {
    if (m.t === 'loop') loops.shift()?.(m);
  });
  return {
    shell,
    events,
    rpc: <T>(method: string, params: unknown) =>
      new Promise<T>((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      }),
    corePid: () => listProcesses().find((p) => p.ppid === shell.pid && p.state !== 'Z' && /entry\.ts|core\.mjs/.test(p.command))?.pid,
    resetLoop: () => void shell.send('loop:reset'),
    readLoop: () =>
      new Promise<LoopFigures>((resolve) => {
        loops.push(resolve);
        shell.send('loop:read');
      }),
    stop: async () => {
      ws.terminate();
      if (shell.exitCode !== null || shell.signalCode !== null) return;
      const gone = new Promise((r) => shell.once('exit', r));
      shell.kill('SIGTERM');
      await gone;
    },
  };
}

/** Adds, approves and connects a stdio server running `script` with this Node, through the bridge. */
export async function addBridgeStdio(app: BenchHeadless, id: string, script: string, extra: Record<string, unknown> = {}): Promise<void> {
  const detail = await app.rpc<{ approval?: { fingerprint: string } }>('servers.add', {
    config: { id, name: id, startup: 'manual', transport: { type: 'stdio', command: process.execPath, args: [script], env: {} }, ...extra },
  });
  if (detail.approval) await app.rpc('servers.approve', { id, fingerprint: detail.approval.fingerprint });
  await app.rpc('servers.connect', { id });
}

/** Retries `call` every 20 ms until it resolves (a route published a moment after connecting, a core restarting). */
export async function untilAnswered<T>(call: () => Promise<T>, timeoutMs = 60_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      return await call();
    } catch (err) {
      if (performance.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

/** Resident memory of a process in MiB (Linux /proc). */
export function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}
