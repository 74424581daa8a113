// Issue 5 benchmark: sequential tools.call round trips over stdio — bare SDK client vs through the host's call
// service (route, scheduler, deadline, presentation, history, events) vs through the WebSocket bridge.
// Run: npm run bench -- calls   (prints figures; not part of npm test)
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { createDispatcher } from '../electron/core/dispatcher.js';
import { createHandlers } from '../electron/core/handlers.js';
import { startBridgeServer } from '../electron/headless/bridge-server.js';
import { addStdio, benchHost, bundleFixture, median, ms, percentile, tempDir } from './support.js';

const N = Number(process.env.BENCH_CALLS ?? 2000);
const WARMUP = 200;
const TOOL = 'mcp__fx__echo';

function report(label: string, samples: number[], totalMs: number): { p50: number } {
  const p50 = median(samples);
  console.log(
    `${label.padEnd(34)} p50 ${ms(p50).padStart(9)}  p99 ${ms(percentile(samples, 99)).padStart(9)}  ${Math.round((samples.length / totalMs) * 1000)} calls/s`,
  );
  return { p50 };
}

async function measure(label: string, once: (i: number) => Promise<void>): Promise<{ p50: number }> {
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

const script = await bundleFixture('test/fixtures/servers/echo-stdio.ts');
console.log(`${N} sequential calls of echo {text} after ${WARMUP} warm-up calls; legacy 2025-11-25 over stdio\n`);

// Bare SDK client.
const bare = new Client({ name: 'bench', version: '0' }, { versionNegotiation: { mode: 'legacy' } });
await bare.connect(new StdioClientTransport({ command: process.execPath, args: [script], stderr: 'ignore' }));
const bareResult = await measure('bare SDK client.callTool', async (i) => {
  await bare.callTool({ name: 'echo', arguments: { text: `hi ${i}` } });
});
await bare.close();

// Through the host.
const host = benchHost(tempDir());
await addStdio(host, 'fx', script, { lifecycle: 'initialize' });
await host.sessions.connect('fx');
for (let tries = 0; ; tries++) {
  try {
    const o = await host.calls.call({ name: TOOL, arguments: { text: 'warm' } });
    if (o.status === 'ok') break;
    throw new Error(o.error?.message ?? o.status);
  } catch (err) {
    if (tries > 100) throw err;
    await new Promise((r) => setTimeout(r, 100));
  }
}
const hostResult = await measure('host tools.call (call service)', async (i) => {
  const o = await host.calls.call({ name: TOOL, arguments: { text: `hi ${i}` } });
  if (o.status !== 'ok') throw new Error(o.error?.message ?? o.status);
});

// Through the WebSocket bridge (dispatcher + zod validation + JSON over ws + events).
const token = randomBytes(32).toString('base64url');
const dispatch = createDispatcher(createHandlers(host));
const server = await startBridgeServer({ dispatch, events: host.events, staticDir: tempDir(), token, port: 0 });
const ws = new WebSocket(`ws://127.0.0.1:${server.port}/bridge?token=${token}`, { headers: { Origin: server.origin } });
await new Promise<void>((resolve, reject) => (ws.once('open', () => resolve()), ws.once('error', reject)));
let nextId = 1;
const pending = new Map<number, (msg: Record<string, unknown>) => void>();
ws.on('message', (data: Buffer) => {
  const msg = JSON.parse(data.toString()) as Record<string, unknown>;
  if (typeof msg.id === 'number') pending.get(msg.id)?.(msg);
});
const bridgeResult = await measure('WebSocket bridge tools.call', async (i) => {
  const id = nextId++;
  const msg = await new Promise<Record<string, unknown>>((resolve) => {
    pending.set(id, resolve);
    ws.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools.call', params: { name: TOOL, arguments: { text: `hi ${i}` } } }));
  });
  pending.delete(id);
  if (!msg.result) throw new Error(JSON.stringify(msg.error));
});
ws.close();
await server.close();
await host.calls.dispose();
await host.shutdown();

console.log(
  `\nhost p50 / bare p50 = ${(hostResult.p50 / bareResult.p50).toFixed(2)}× (target ≤ 1.10×); bridge p50 / bare p50 = ${(bridgeResult.p50 / bareResult.p50).toFixed(2)}×`,
);
