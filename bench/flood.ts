// Issue 17 item 5 benchmark: bridge round trips (servers.list over the WebSocket bridge) while a server floods the
// host with notifications (logging, progress for unknown tokens, list changes) as fast as its pipe takes them,
// against a baseline without the flood in the same run; also the host's CPU and what the budget dropped.
// Run: npm run bench -- flood   (prints figures; not part of npm test)
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { createDispatcher } from '../electron/core/dispatcher.js';
import { createHandlers } from '../electron/core/handlers.js';
import { startBridgeServer } from '../electron/headless/bridge-server.js';
import { addStdio, benchHost, bundleFixture, loadLine, maxOf, median, ms, percentile, tempDir } from './support.js';

const SECONDS = Number(process.env.BENCH_FLOOD_SECONDS ?? 10);
const TARGET_P99_MS = 50;

const script = await bundleFixture('test/fixtures/servers/hostile-flood.ts');
const host = benchHost(tempDir());
await addStdio(host, 'flood', script, { lifecycle: 'initialize' });

const token = randomBytes(32).toString('base64url');
const server = await startBridgeServer({
  dispatch: createDispatcher(createHandlers(host)),
  events: host.events,
  staticDir: tempDir(),
  token,
  port: 0,
});
const ws = new WebSocket(`ws://127.0.0.1:${server.port}/bridge?token=${token}`, { headers: { Origin: server.origin } });
await new Promise<void>((resolve, reject) => (ws.once('open', () => resolve()), ws.once('error', reject)));
let nextId = 1;
let events = 0;
const pending = new Map<number, () => void>();
ws.on('message', (data: Buffer) => {
  const msg = JSON.parse(data.toString()) as { id?: number; method?: string };
  if (typeof msg.id === 'number') pending.get(msg.id)?.();
  else events++;
});
const roundTrip = (): Promise<void> =>
  new Promise((resolve) => {
    const id = nextId++;
    pending.set(id, () => (pending.delete(id), resolve()));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'servers.list', params: {} }));
  });

async function measure(label: string): Promise<{ p99: number; cpu: number; events: number }> {
  for (let i = 0; i < 100; i++) await roundTrip();
  const samples: number[] = [];
  const eventsBefore = events;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  while (performance.now() - t0 < SECONDS * 1000) {
    const s = performance.now();
    await roundTrip();
    samples.push(performance.now() - s);
  }
  const wall = performance.now() - t0;
  const used = process.cpuUsage(cpu0);
  const cpu = (used.user + used.system) / 1000 / wall;
  const p99 = percentile(samples, 99);
  console.log(
    `${label.padEnd(26)} ${String(samples.length).padStart(6)} round trips  p50 ${ms(median(samples)).padStart(9)}  p99 ${ms(p99).padStart(9)}  max ${ms(maxOf(samples)).padStart(9)}  host CPU ${(cpu * 100).toFixed(0)}%  events pushed ${events - eventsBefore}`,
  );
  return { p99, cpu, events: events - eventsBefore };
}

console.log(`servers.list over the WebSocket bridge, sequential, ${SECONDS} s each (${loadLine()})\n`);
const base = await measure('baseline (no flood)');
const status = await host.sessions.connect('flood');
if (status.state !== 'connected') throw new Error(`flood server did not connect: ${status.error?.message ?? status.state}`);
const flood = await measure('during a notification flood');
const sent = await host.calls.call({ name: 'mcp__flood__stop', arguments: {} });
const dropped = host.status('flood').droppedNotifications ?? 0;

console.log(`\nflood server: ${sent.presentation.text}; dropped by the budget: ${dropped}`);
console.log(
  `p99 during the flood ${ms(flood.p99)} (target ≤ ${TARGET_P99_MS} ms: ${flood.p99 <= TARGET_P99_MS ? 'met' : 'NOT met'}); ` +
    `p99 flood / baseline = ${(flood.p99 / base.p99).toFixed(2)}×; host CPU ${(flood.cpu * 100).toFixed(0)}% vs ${(base.cpu * 100).toFixed(0)}%`,
);

ws.close();
await server.close();
await host.shutdown();
