// Gateway benchmark (issue 15): sequential tools/call through the gateway (SDK v2 client → gateway HTTP → host
// call service → stdio fixture server) against the same calls from the bare SDK client straight to the server,
// p50/p99, on a 2025-11-25 session and on 2026-07-28 stateless requests; then 10 clients × 100 concurrent calls.
// The gateway's host runs in its own process (this file, started with --host), as it does for a real app.
// The floor of any HTTP gateway is measured too: a bare SDK proxy in its own process (--proxy: an SDK v2 HTTP
// server whose echo tool calls the stdio server through a bare SDK client), so the gateway's own cost is the ratio
// to that floor, and the HTTP hop's cost is the floor's ratio to direct.
// Target: gateway p50 ≤ 1.25× direct. Run: npm run bench -- gateway   (prints figures; not part of npm test)
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, isLegacyRequest, McpServer, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { addStdio, benchHost, bundleFixture, median, ms, percentile, tempDir } from './support.js';

const N = Number(process.env.BENCH_CALLS ?? 2000);
const WARMUP = 200;
const CLIENTS = 10;
const CONCURRENT = 100;

/** Host mode: a Switchboard host with the fixture behind its gateway and one client per bench client; prints {url, tokens}, stops on SIGTERM. */
async function hostMode(script: string): Promise<void> {
  const host = benchHost(tempDir());
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
  const handler = toNodeHandler({
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

/** Starts this file in a mode and reads the JSON line it prints. */
async function child<T>(mode: string): Promise<{ info: T; stop: () => Promise<void> }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  const info = await new Promise<T>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).once('line', (line) => resolve(JSON.parse(line) as T));
    proc.once('exit', (code) => reject(new Error(`the ${mode} process exited with ${String(code)}`)));
  });
  return {
    info,
    stop: async () => {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

interface Figures {
  p50: number;
  p99: number;
}

function report(label: string, samples: number[], totalMs: number): Figures {
  const p50 = median(samples);
  const p99 = percentile(samples, 99);
  console.log(
    `${label.padEnd(44)} p50 ${ms(p50).padStart(9)}  p99 ${ms(p99).padStart(9)}  ${Math.round((samples.length / totalMs) * 1000)} calls/s`,
  );
  return { p50, p99 };
}

async function sequential(label: string, once: (i: number) => Promise<void>): Promise<Figures> {
  for (let i = 0; i < WARMUP; i++) await once(i);
  const samples: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const s = performance.now();
    await once(i);
    samples.push(performance.now() - s);
  }
  return report(label, samples, performance.now() - t0);
}

async function echo(client: Client, name: string, i: number): Promise<void> {
  const r = await client.callTool({ name, arguments: { text: `hi ${i}` } });
  if (r.isError) throw new Error(JSON.stringify(r.content).slice(0, 200));
}

async function burst(label: string, clients: Client[], name: string): Promise<void> {
  const samples: number[] = [];
  const failures = new Map<string, number>();
  const t0 = performance.now();
  await Promise.all(
    clients.map((c, ci) =>
      Promise.all(
        Array.from({ length: CONCURRENT }, async (_, i) => {
          const s = performance.now();
          try {
            await echo(c, name, ci * CONCURRENT + i);
            samples.push(performance.now() - s);
          } catch (err) {
            const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message.slice(0, 80);
            failures.set(cause, (failures.get(cause) ?? 0) + 1);
          }
        }),
      ),
    ),
  );
  report(label, samples, performance.now() - t0);
  if (failures.size > 0) console.log(`  failed calls: ${[...failures].map(([k, v]) => `${v} × ${k}`).join(', ')}`);
}

async function main(): Promise<void> {
  const script = await bundleFixture('test/fixtures/servers/echo-stdio.ts');
  if (process.argv[2] === '--host') return hostMode(script);
  if (process.argv[2] === '--proxy') return proxyMode(script);
  console.log(`${N} sequential calls of echo {text} after ${WARMUP} warm-up calls; the server speaks 2025-11-25 over stdio\n`);

  // Direct: the bare SDK client straight to the server.
  const bare = new Client({ name: 'bench', version: '0' }, { versionNegotiation: { mode: 'legacy' } });
  await bare.connect(new StdioClientTransport({ command: process.execPath, args: [script], stderr: 'ignore' }));
  const direct = await sequential('direct: bare SDK client → stdio server', (i) => echo(bare, 'echo', i));

  // The floor: a bare SDK HTTP proxy in another process.
  const proxy = await child<{ url: string }>('--proxy');
  const floorClient = async (era: 'legacy' | 'auto'): Promise<Client> => {
    const c = new Client({ name: 'bench-floor', version: '0' }, { versionNegotiation: { mode: era } });
    await c.connect(new StreamableHTTPClientTransport(new URL(proxy.info.url)));
    return c;
  };
  const floorSession = await floorClient('legacy');
  const floorViaSession = await sequential('floor: bare SDK HTTP proxy, session', (i) => echo(floorSession, 'echo', i));
  const floorStateless = await floorClient('auto');
  const floorViaStateless = await sequential('floor: bare SDK HTTP proxy, stateless', (i) => echo(floorStateless, 'echo', i));
  await floorSession.close();
  await floorStateless.close();
  await proxy.stop();

  // Through the gateway, its host in another process.
  const gatewayHost = await child<{ url: string; tokens: string[] }>('--host');
  const { url, tokens } = gatewayHost.info;
  const open = async (era: 'legacy' | 'auto', n = 0): Promise<Client> => {
    const c = new Client({ name: 'bench-gw', version: '0' }, { versionNegotiation: { mode: era } });
    await c.connect(
      new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${tokens[n]}` } } }),
    );
    return c;
  };
  const session = await open('legacy');
  const viaSession = await sequential('gateway, 2025-11-25 session', (i) => echo(session, 'mcp__fx__echo', i));
  const stateless = await open('auto');
  const viaStateless = await sequential('gateway, 2026-07-28 stateless', (i) => echo(stateless, 'mcp__fx__echo', i));
  await session.close();
  await stateless.close();

  console.log(`\n${CLIENTS} clients × ${CONCURRENT} concurrent calls (server concurrency policy: parallel)`);
  await burst(
    'direct: one bare client, 1,000 in flight',
    Array.from({ length: CLIENTS }, () => bare),
    'echo',
  );
  for (const era of ['legacy', 'auto'] as const) {
    const clients = await Promise.all(Array.from({ length: CLIENTS }, (_, n) => open(era, n)));
    await burst(`gateway, ${era === 'legacy' ? '2025-11-25 sessions' : '2026-07-28 stateless'}`, clients, 'mcp__fx__echo');
    await Promise.all(clients.map((c) => c.close()));
  }

  await bare.close();
  await gatewayHost.stop();

  const ratio = (f: Figures, base: Figures): string => `${(f.p50 / base.p50).toFixed(2)}×`;
  console.log(
    `\ngateway p50 / direct p50: session ${ratio(viaSession, direct)}, stateless ${ratio(viaStateless, direct)} (target ≤ 1.25×)` +
      `\nfloor (bare SDK HTTP proxy) p50 / direct p50: session ${ratio(floorViaSession, direct)}, stateless ${ratio(floorViaStateless, direct)}: the HTTP hop alone` +
      `\ngateway p50 / floor p50: session ${ratio(viaSession, floorViaSession)}, stateless ${ratio(viaStateless, floorViaStateless)}: the gateway's own cost` +
      `\np99: direct ${ms(direct.p99)}, floor ${ms(floorViaSession.p99)} / ${ms(floorViaStateless.p99)}, session ${ms(viaSession.p99)}, stateless ${ms(viaStateless.p99)}`,
  );
}

await main();
