// Issue 5 benchmark: sequential tools.call round trips over stdio — bare SDK client vs through the host's call
// service (route, scheduler, deadline, presentation, history, events), with a 64 KiB result too, and through the WebSocket bridge.
// Run: npm run bench -- calls   (prints figures; not part of npm test)
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { createDispatcher } from '../electron/core/dispatcher.js';
import { createHandlers } from '../electron/core/handlers.js';
import { startBridgeServer } from '../electron/headless/bridge-server.js';
import { addStdio, benchHost, bundleFixture, interleave, timed, tempDir } from './support.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const PER_ROUND = Number(process.env.BENCH_CALLS ?? 300);
const TOOL = 'mcp__fx__echo';
/** The large result: one text block of 64 KiB. */
const BIG_BYTES = 64 * 1024;

const script = await bundleFixture('test/fixtures/servers/echo-stdio.ts');
console.log(
  `${ROUNDS} interleaved rounds of ${PER_ROUND} sequential calls of echo {text}; legacy 2025-11-25 over stdio; figure per round: p50\n`,
);

// Bare SDK client.
const bare = new Client({ name: 'bench', version: '0' }, { versionNegotiation: { mode: 'legacy' } });
await bare.connect(new StdioClientTransport({ command: process.execPath, args: [script], stderr: 'ignore' }));
const bareCall = async (i: number): Promise<void> => {
  await bare.callTool({ name: 'echo', arguments: { text: `hi ${i}` } });
};

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
const hostCall = async (i: number): Promise<void> => {
  const o = await host.calls.call({ name: TOOL, arguments: { text: `hi ${i}` } });
  if (o.status !== 'ok') throw new Error(o.error?.message ?? o.status);
};
const bareBig = async (): Promise<void> => {
  await bare.callTool({ name: 'big', arguments: { bytes: BIG_BYTES } });
};
const hostBig = async (): Promise<void> => {
  const o = await host.calls.call({ name: 'mcp__fx__big', arguments: { bytes: BIG_BYTES } });
  if (o.status !== 'ok' || o.resultBytes === undefined || o.resultBytes < BIG_BYTES) throw new Error(o.error?.message ?? o.status);
};

/** One round of one path: its p50 (ms), and its CPU per call in this process (ms) kept aside. */
const cpuPerCall = new Map<string, number[]>();
const side = (name: string, once: (i: number) => Promise<void>) => ({
  name,
  run: async () => {
    const c0 = process.cpuUsage();
    const r = await timed(PER_ROUND, once);
    const c = process.cpuUsage(c0);
    const list = cpuPerCall.get(name) ?? [];
    list.push((c.user + c.system) / 1000 / (PER_ROUND + Math.min(50, PER_ROUND)));
    cpuPerCall.set(name, list);
    return r.p50;
  },
});
const bareSide = side('bare SDK', bareCall);
const host1 = await interleave(
  'stdio tools/call p50, call service vs bare SDK (target ≤ 1.10×)',
  ROUNDS,
  bareSide,
  side('call service', hostCall),
);
const big1 = await interleave(
  `stdio tools/call p50, ${BIG_BYTES / 1024} KiB result, call service vs bare SDK (target ≤ 1.20×)`,
  ROUNDS,
  side('bare SDK, 64 KiB', bareBig),
  side('call service, 64 KiB', hostBig),
);
// Through the WebSocket bridge (dispatcher + zod validation + JSON over ws + events). Opened only now: its viewer
// receives every event of every call (progress, finished, protocol traffic) and this process decodes them too, so
// the call service alone is measured before it, and again with the viewer attached.
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
const bridgeCall = async (i: number): Promise<void> => {
  const id = nextId++;
  const msg = await new Promise<Record<string, unknown>>((resolve) => {
    pending.set(id, resolve);
    ws.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools.call', params: { name: TOOL, arguments: { text: `hi ${i}` } } }));
  });
  pending.delete(id);
  if (!msg.result) throw new Error(JSON.stringify(msg.error));
};

const viewed1 = await interleave(
  'stdio tools/call p50, call service with a bridge viewer attached vs bare SDK',
  ROUNDS,
  bareSide,
  side('call service, viewed', hostCall),
);
const bridge1 = await interleave(
  'stdio tools/call p50, WebSocket bridge vs bare SDK (target ≤ 1.5×)',
  ROUNDS,
  bareSide,
  side('bridge', bridgeCall),
);
const cpuMedian = (name: string): number => {
  const xs = [...(cpuPerCall.get(name) ?? [])].sort((a, b) => a - b);
  return xs[Math.floor(xs.length / 2)] ?? NaN;
};
console.log(
  `\ncall service ${host1.ratio.toFixed(2)}× (${viewed1.ratio.toFixed(2)}× with a bridge viewer), bridge ${bridge1.ratio.toFixed(2)}×, 64 KiB result ${big1.ratio.toFixed(2)}× the bare SDK's p50; CPU per call in this process (median of rounds): ` +
    `bare ${cpuMedian('bare SDK').toFixed(3)} ms, call service ${cpuMedian('call service').toFixed(3)} ms (${cpuMedian('call service, viewed').toFixed(3)} ms viewed), bridge ${cpuMedian('bridge').toFixed(3)} ms (the bridge's host CPU only); ` +
    `CPU ratio call service / bare ${(cpuMedian('call service') / cpuMedian('bare SDK')).toFixed(2)}× (target ≤ 1.2×); ` +
    `64 KiB: bare ${cpuMedian('bare SDK, 64 KiB').toFixed(3)} ms, call service ${cpuMedian('call service, 64 KiB').toFixed(3)} ms`,
);
await bare.close();
ws.close();
await server.close();
await host.calls.dispose();
await host.shutdown();
