// Headless Switchboard from source for the shell tests: the launcher as a real child process with its own data
// folder, the bridge a page uses (a WebSocket speaking the typed contract), and what each test started, so one
// afterEach ends it all and checks every process of the run is gone.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { listProcesses } from '../../../testing/process-tree.js';
import { cleanup, tempDir } from '../../shared/support/harness.js';
import { alive, childrenOf, until } from './processes.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** Kill rounds (the 20 by default; SWITCHBOARD_TEST_KILL_ROUNDS lowers it for a quick local run). */
export const ROUNDS = Number(process.env['SWITCHBOARD_TEST_KILL_ROUNDS'] ?? 20);

const dirs: string[] = [];
const children: ChildProcess[] = [];
const sockets: WebSocket[] = [];

/** Ends what the test launched (the shell, its core and their servers), checks every process is gone, removes data. */
export async function stopLaunched(): Promise<void> {
  for (const ws of sockets.splice(0)) ws.terminate();
  for (const child of children.splice(0)) {
    const tree = [child.pid!, ...childrenOf(child.pid!), ...childrenOf(child.pid!).flatMap(childrenOf)];
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await gone;
    }
    await until('every process of the run to end', () => tree.every((pid) => !alive(pid)));
  }
  dirs.splice(0).forEach(cleanup);
}

/** The page's side of the bridge: typed-contract calls and every push received, in order. */
export interface Bridge {
  rpc<T = unknown>(method: string, params: unknown): Promise<T>;
  events: { method: string; params: unknown }[];
}

/** A running headless shell. */
export interface Launched {
  child: ChildProcess;
  bridge: Bridge;
  dataDir: string;
  stderr: () => string;
}

/** Starts headless Switchboard with a fresh data folder (or `reuse`, one an earlier launch made) and connects a bridge to it. */
export async function launch(env: NodeJS.ProcessEnv = {}, reuse?: string): Promise<Launched> {
  const dataDir = reuse ?? tempDir('sb-core-restart-');
  if (reuse === undefined) dirs.push(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', 'electron/headless.ts', '--data-dir', dataDir, '--json'], {
    cwd: root,
    env: { ...process.env, SWITCHBOARD_CREDENTIALS: 'memory', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const { port, token } = await new Promise<{ port: number; token: string }>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line) as { port: number; token: string }));
    child.once('exit', (code) => reject(new Error(`headless exited with ${String(code)}: ${err}`)));
  });
  const ws = new WebSocket(`ws://127.0.0.1:${port}/bridge?token=${token}`, { headers: { Origin: `http://127.0.0.1:${port}` } });
  sockets.push(ws);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'bridge/visibility', params: { visible: true } }));
  let next = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error & { code?: string | undefined }) => void }>();
  const events: Bridge['events'] = [];
  ws.on('message', (data: Buffer) => {
    const msg = JSON.parse(data.toString()) as {
      id?: number;
      method?: string;
      params?: unknown;
      result?: unknown;
      error?: { message: string; data?: { code?: string } };
    };
    if (typeof msg.id === 'number') {
      const p = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) p?.reject(Object.assign(new Error(msg.error.message), { code: msg.error.data?.code }));
      else p?.resolve(msg.result);
    } else if (msg.method) events.push({ method: msg.method, params: msg.params });
  });
  const rpc = <T>(method: string, params: unknown): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  return { child, bridge: { rpc, events }, dataDir, stderr: () => err };
}

/** The shell's core process (its one child running the core entry). */
export function corePid(shell: number): number | undefined {
  return listProcesses().find((p) => p.ppid === shell && p.state !== 'Z' && p.command.includes('entry.ts'))?.pid;
}

/** Waits for the core to report running again after the push at index `since` of the bridge's events. */
export async function coreRunningAgain(bridge: Bridge, since: number): Promise<void> {
  const statuses = (): unknown[] =>
    bridge.events
      .slice(since)
      .filter((e) => e.method === 'app.coreStatus')
      .map((e) => e.params);
  try {
    await until('the core to run again', () => statuses().some((s) => (s as { state: string }).state === 'running'));
  } catch (err) {
    // What the shell said since the kill tells a slow start from a shell that gave up.
    throw new Error(`${(err as Error).message}; the shell said since the kill: ${JSON.stringify(statuses())}`);
  }
}

/** A scratch folder removed with the launched processes (for a fixture's own state). */
export function scratchDir(prefix: string): string {
  const dir = tempDir(prefix);
  dirs.push(dir);
  return dir;
}

/** Every file in the data folder that a store moved or copied aside as unreadable (`<name>.corrupt-<time>`). */
export function quarantined(dataDir: string): string[] {
  return (readdirSync(dataDir, { recursive: true }) as string[]).filter((f) => f.includes('.corrupt-'));
}

/** Kills the core with SIGKILL and waits until a new one runs and nothing of the dead one (it, its servers) is left. */
export async function killCore(launched: Launched): Promise<void> {
  const core = await until('the core process', () => corePid(launched.child.pid!));
  const servers = [...childrenOf(core), ...childrenOf(core).flatMap(childrenOf)];
  const since = launched.bridge.events.length;
  process.kill(core, 'SIGKILL');
  await coreRunningAgain(launched.bridge, since);
  await until(`the dead core's processes ${[core, ...servers].join(', ')} to be gone`, () =>
    [core, ...servers].every((pid) => !alive(pid)),
  );
}
