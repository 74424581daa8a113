// Gateway benchmark (issue 15): sequential tools/call through the gateway (SDK v2 client → gateway HTTP → host
// call service → stdio fixture server) against the same calls from the bare SDK client straight to the server,
// p50/p99, on a 2025-11-25 session and on 2026-07-28 stateless requests; then 10 clients × 100 concurrent calls.
// The gateway's host runs in its own process (this file, started with --host), as it does for a real app.
// Target: gateway p50 ≤ 1.25× direct. Run: npm run bench -- gateway   (prints figures; not part of npm test)
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
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
  console.log(`${N} sequential calls of echo {text} after ${WARMUP} warm-up calls; the server speaks 2025-11-25 over stdio\n`);

  // Direct: the bare SDK client straight to the server.
  const bare = new Client({ name: 'bench', version: '0' }, { versionNegotiation: { mode: 'legacy' } });
  await bare.connect(new StdioClientTransport({ command: process.execPath, args: [script], stderr: 'ignore' }));
  const direct = await sequential('direct: bare SDK client → stdio server', (i) => echo(bare, 'echo', i));

  // Through the gateway, its host in another process.
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--host'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const { url, tokens } = await new Promise<{ url: string; tokens: string[] }>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line) as { url: string; tokens: string[] }));
    child.once('exit', (code) => reject(new Error(`the gateway host exited with ${String(code)}`)));
  });
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
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;

  const ratio = (f: Figures): string => `${(f.p50 / direct.p50).toFixed(2)}×`;
  console.log(
    `\ngateway p50 / direct p50: session ${ratio(viaSession)}, stateless ${ratio(viaStateless)} (target ≤ 1.25×)` +
      `\np99: direct ${ms(direct.p99)}, session ${ms(viaSession.p99)}, stateless ${ms(viaStateless.p99)}`,
  );
}

await main();
