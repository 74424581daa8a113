// Gateway benchmark (issue 15): sequential tools/call through the gateway (SDK v2 client → gateway HTTP → host
// call service → stdio fixture server) against the same calls from the bare SDK client straight to the server,
// p50/p99, on a 2025-11-25 session and on 2026-07-28 stateless requests; then 10 clients × 100 concurrent calls.
// The gateway's host runs in its own process (this file, started with --host), as it does for a real app.
// The floor of any HTTP gateway is measured too: a bare SDK proxy in its own process (--proxy: an SDK v2 HTTP
// server whose echo tool calls the stdio server through a bare SDK client), so the gateway's own cost is the ratio
// to that floor, and the HTTP hop's cost is the floor's ratio to direct.
// A and B run in interleaved rounds (bench/support.ts). Target: gateway p50 ≤ the floor. Run: npm run bench -- gateway   (prints figures; not part of npm test)
import { fork, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { nodeHttpHandler } from '../electron/core/sdk/node-handler.js';
import type { FrontDoor } from '../electron/core/gateway/http-front.js';
import { GatewayDoor, type DoorOpened } from '../electron/shell/gateway-door.js';
import { createMcpHandler, isLegacyRequest, McpServer, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { addStdio, benchHost, bundleFixture, interleave, loadLine, tempDir, timed } from './support.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 11);
const PER_ROUND = Number(process.env.BENCH_CALLS ?? 200);
const CLIENTS = 10;
const CONCURRENT = 100;

/**
 * The shell's gateway door in a process of its own (as in headless and desktop mode: the shell holds the port and
 * pipes each connection to the core's private front). Told {port, upstream} over IPC, it answers {port}.
 */
async function doorMode(): Promise<void> {
  const door = new GatewayDoor({ gapReason: () => 'the bench core is restarting' });
  process.on('message', (m: { port: number; upstream: number }) => {
    void door.open(m.port, m.upstream).then((opened) => process.send!(opened));
  });
  process.on('disconnect', () => void door.close().then(() => process.exit(0)));
}

/** A FrontDoor that is a door process (doorMode) started by this one. */
function doorProcess(): FrontDoor {
  const proc = fork(fileURLToPath(import.meta.url), ['--door'], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return {
    open: (port, upstream) =>
      new Promise((resolve, reject) => {
        proc.once('message', (m: DoorOpened) => ('port' in m ? resolve(m.port) : reject(new Error(m.message))));
        proc.send({ port, upstream });
      }),
    close: async () => {
      proc.disconnect();
    },
  };
}

/**
 * Host mode: a Switchboard host with the fixture behind its gateway and one client per bench client; prints {url,
 * tokens}, stops on SIGTERM. With --door the gateway is reached through a door process, the path a client of
 * headless or desktop Switchboard takes.
 */
async function hostMode(script: string, door: boolean): Promise<void> {
  const host = benchHost(tempDir(), undefined, door ? { gatewayDoor: doorProcess() } : {});
  await addStdio(host, 'fx', script, { lifecycle: 'initialize', concurrency: 'parallel' });
  await host.sessions.connect('fx');
  await host.catalog.refresh('fx');
  const { url } = await host.gateway.enable(0);
  const tokens: string[] = [];
  for (let i = 0; i < CLIENTS; i++) tokens.push((await host.gateway.addClient(`bench-${i}`, { mode: 'all', writes: 'allow' })).token);
  process.stdout.write(`${JSON.stringify({ url, tokens })}\n`);
  process.on('SIGTERM', () => void host.shutdown().then(() => process.exit(0)));
}

/** Proxy mode: the floor. A bare SDK HTTP server (2025-11-25 sessions and 2026-07-28 stateless) forwarding echo to the stdio server; prints {url}. */
async function proxyMode(script: string): Promise<void> {
  const upstream = new Client({ name: 'bench-proxy', version: '0' }, { versionNegotiation: { mode: 'legacy' } });
  await upstream.connect(new StdioClientTransport({ command: process.execPath, args: [script], stderr: 'ignore' }));
  const surface = (): McpServer => {
    const server = new McpServer({ name: 'bench-proxy', version: '0' });
    server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => {
      const r = await upstream.callTool({ name: 'echo', arguments: { text } });
      return { content: r.content as { type: 'text'; text: string }[] };
    });
    return server;
  };
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const modern = createMcpHandler(() => surface(), { legacy: 'reject' });
  const handler = nodeHttpHandler({
    fetch: async (request: Request) => {
      const open = sessions.get(request.headers.get('mcp-session-id') ?? '');
      if (open) return open.handleRequest(request);
      if (!(await isLegacyRequest(request))) return modern.fetch(request);
      const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (id) => void sessions.set(id, transport),
      });
      await surface().connect(transport);
      return transport.handleRequest(request);
    },
  });
  const server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` })}\n`);
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    server.close();
    void upstream.close().then(() => process.exit(0));
  });
}

/** A process's resident set in MiB (Linux /proc; NaN elsewhere). */
function rssMiB(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? NaN : Number(kb) / 1024;
  } catch {
    return NaN;
  }
}

/** Starts this file in a mode and reads the JSON line it prints. */
async function child<T>(...mode: string[]): Promise<{ info: T; rssMiB: () => number; stop: () => Promise<void> }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), ...mode], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const info = await new Promise<T>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).once('line', (line) => resolve(JSON.parse(line) as T));
    proc.once('exit', (code) => reject(new Error(`the ${mode.join(' ')} process exited with ${String(code)}`)));
  });
  return {
    info,
    rssMiB: () => rssMiB(proc.pid!),
    stop: async () => {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

async function echo(client: Client, name: string, i: number): Promise<void> {
  const r = await client.callTool({ name, arguments: { text: `hi ${i}` } });
  if (r.isError) throw new Error(JSON.stringify(r.content).slice(0, 200));
}

/** 10 clients × 100 calls in flight at once; returns calls per second (failed calls are counted and printed). */
async function burst(clients: Client[], name: string): Promise<number> {
  let ok = 0;
  const failures = new Map<string, number>();
  const t0 = performance.now();
  await Promise.all(
    clients.map((c, ci) =>
      Promise.all(
        Array.from({ length: CONCURRENT }, async (_, i) => {
          try {
            await echo(c, name, ci * CONCURRENT + i);
            ok++;
          } catch (err) {
            const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message.slice(0, 80);
            failures.set(cause, (failures.get(cause) ?? 0) + 1);
          }
        }),
      ),
    ),
  );
  if (failures.size > 0)
    console.log(
      `  failed calls of the ${name === 'echo' ? 'bare SDK proxy' : 'gateway'}: ${[...failures].map(([k, v]) => `${v} × ${k}`).join(', ')}`,
    );
  return (ok / (performance.now() - t0)) * 1000;
}

async function main(): Promise<void> {
  if (process.argv[2] === '--door') return doorMode();
  const script = await bundleFixture('test/fixtures/servers/echo-stdio.ts');
  if (process.argv[2] === '--host') return hostMode(script, process.argv[3] === '--door');
  if (process.argv[2] === '--proxy') return proxyMode(script);
  console.log(
    `${ROUNDS} interleaved rounds of ${PER_ROUND} sequential calls of echo {text}, figure per round: p50; the server speaks 2025-11-25 over stdio (${loadLine()})\n`,
  );

  // The floor (a bare SDK HTTP proxy) and the gateway, each in its own process, both up for the whole run.
  // BENCH_DOOR=1: the gateway is reached through the shell's door in a process of its own (headless/desktop mode).
  const door = process.env.BENCH_DOOR === '1' ? ['--door'] : [];
  const [proxy, gatewayHost] = await Promise.all([
    child<{ url: string }>('--proxy'),
    child<{ url: string; tokens: string[] }>('--host', ...door),
  ]);
  if (door.length > 0) console.log('the gateway is reached through a door process (the shell of headless/desktop mode)');
  const { url, tokens } = gatewayHost.info;
  const floor = async (era: 'legacy' | 'auto'): Promise<Client> => {
    const c = new Client({ name: 'bench-floor', version: '0' }, { versionNegotiation: { mode: era } });
    await c.connect(new StreamableHTTPClientTransport(new URL(proxy.info.url)));
    return c;
  };
  const open = async (era: 'legacy' | 'auto', n = 0): Promise<Client> => {
    const c = new Client({ name: 'bench-gw', version: '0' }, { versionNegotiation: { mode: era } });
    await c.connect(
      new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${tokens[n]}` } } }),
    );
    return c;
  };
  const bare = new Client({ name: 'bench', version: '0' }, { versionNegotiation: { mode: 'legacy' } });
  await bare.connect(new StdioClientTransport({ command: process.execPath, args: [script], stderr: 'ignore' }));
  const p50 = (once: (i: number) => Promise<void>) => async () => (await timed(PER_ROUND, once)).p50;

  const direct = { name: 'direct', run: p50((i) => echo(bare, 'echo', i)) };
  for (const era of ['legacy', 'auto'] as const) {
    const what = era === 'legacy' ? '2025-11-25 session' : '2026-07-28 stateless';
    const f = await floor(era);
    const g = await open(era);
    const floorSide = { name: 'bare SDK proxy', run: p50((i) => echo(f, 'echo', i)) };
    await interleave(`p50, ${what}: bare SDK HTTP proxy vs direct (the HTTP hop alone)`, ROUNDS, direct, floorSide);
    await interleave(`p50, ${what}: gateway vs bare SDK HTTP proxy (the gateway's own cost)`, ROUNDS, floorSide, {
      name: 'gateway',
      run: p50((i) => echo(g, 'mcp__fx__echo', i)),
    });
    await f.close();
    await g.close();
  }

  console.log(
    `\n${CLIENTS} clients × ${CONCURRENT} concurrent calls (server concurrency policy: parallel); figure: calls/s, higher is better`,
  );
  for (const era of ['legacy', 'auto'] as const) {
    const floors = await Promise.all(Array.from({ length: CLIENTS }, () => floor(era)));
    const gateways = await Promise.all(Array.from({ length: CLIENTS }, (_, n) => open(era, n)));
    await interleave(
      `throughput, ${era === 'legacy' ? '2025-11-25 sessions' : '2026-07-28 stateless'}: gateway vs bare SDK HTTP proxy`,
      Math.max(3, Math.ceil(ROUNDS / 2)),
      { name: 'bare SDK proxy', run: () => burst(floors, 'echo') },
      { name: 'gateway', run: () => burst(gateways, 'mcp__fx__echo') },
      'calls/s',
    );
    // Resident memory with the 10 clients still connected, after the bursts (target: gateway ≤ 1.2× the floor).
    const [floorRss, gatewayRss] = [proxy.rssMiB(), gatewayHost.rssMiB()];
    console.log(
      `RSS with ${CLIENTS} clients (${era === 'legacy' ? '2025-11-25 sessions' : '2026-07-28 stateless'}): bare SDK proxy ${floorRss.toFixed(1)} MiB, gateway host ${gatewayRss.toFixed(1)} MiB; gateway / floor = ${(gatewayRss / floorRss).toFixed(2)}×`,
    );
    await Promise.all([...floors, ...gateways].map((c) => c.close()));
  }

  await bare.close();
  await Promise.all([proxy.stop(), gatewayHost.stop()]);
}

await main();
