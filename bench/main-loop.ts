// Main-loop benchmark: event-loop delay (p50, p99, max) of the thread that serves the windows or the bridge while 10
// stdio servers each return an 8 MiB result at the same time, with the call history full (1,000 entries of ~32 KiB
// presentation text each, the bounded size) and written after every round.
//   A: split processes, as shipped: the headless launcher (shell) with its core in a child process; measured in the
//      shell process (loop-probe.mjs), the calls made through its bridge as a page makes them.
//   B: the single process of before the split: the same core in the measuring process itself (the bridge aside).
// A and B are interleaved over rounds in one run; the per-round ratios B/A are printed with their range, and A's p99
// against the 10 ms goal (the single process measured 21-25 ms before the split).
// Run: npm run bench -- main-loop   (prints figures; not part of npm test)
import { copyFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { HISTORY_FILE } from '../electron/core/calls/host-calls.js';
import type { HistoryEntry } from '../shared/domains/calls.js';
import { addStdio, benchHost, bundleFixture, interleave, loadLine, median, ms, tempDir } from './support.js';
import { addBridgeStdio, startBenchHeadless, untilAnswered } from './lib/headless-bridge.js';
const SERVERS = Number(process.env.BENCH_SERVERS ?? 10);
const RESULT_BYTES = 8 * 1024 * 1024;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const HISTORY_ENTRIES = 1000;
const HISTORY_TEXT = 32 * 1024;
/** The split's goal for the shell's p99 under this load. */
const TARGET_P99_MS = 10;

interface LoopFigures {
  p50: number;
  p99: number;
  max: number;
  seconds: number;
}

/** Event-loop delay while `work` runs (ns histogram → ms). */
async function measure(work: () => Promise<void>): Promise<LoopFigures> {
  const h = monitorEventLoopDelay({ resolution: 5 });
  const started = performance.now();
  h.enable();
  await work();
  h.disable();
  return {
    p50: h.percentile(50) / 1e6,
    p99: h.percentile(99) / 1e6,
    max: h.max / 1e6,
    seconds: (performance.now() - started) / 1000,
  };
}

function show(label: string, f: LoopFigures): void {
  console.log(
    `${label.padEnd(46)} p50 ${ms(f.p50).padStart(9)}  p99 ${ms(f.p99).padStart(9)}  max ${ms(f.max).padStart(9)}  (${f.seconds.toFixed(1)} s)`,
  );
}

const script = await bundleFixture('test/fixtures/servers/echo-stdio.ts');
const dir = tempDir();
const host = benchHost(dir);
for (let i = 0; i < SERVERS; i++) {
  await addStdio(host, `s${i}`, script, { lifecycle: 'initialize', limits: { messageBytes: 16 * 1024 * 1024 } });
}
await Promise.all(Array.from({ length: SERVERS }, (_, i) => host.sessions.connect(`s${i}`)));
// Wait for every catalog to be published (the first call needs the route).
for (let i = 0; i < SERVERS; i++) {
  for (let tries = 0; ; tries++) {
    try {
      host.catalog.tool(`mcp__s${i}__big`);
      break;
    } catch (err) {
      if (tries > 400) throw err;
      await sleep(50);
    }
  }
}

// A full history: 1,000 entries with bounded presentations, as after a long session.
const text = 'h'.repeat(HISTORY_TEXT);
for (let n = 0; n < HISTORY_ENTRIES; n++) {
  const entry: HistoryEntry = {
    callId: `seed-${n}`,
    serverId: 's0',
    tool: 'mcp__s0__big',
    originalName: 'big',
    arguments: { bytes: n },
    startedAt: Date.now() - n * 1000,
    durationMs: 5,
    status: 'ok',
    presentation: { isError: false, text, truncated: true, media: [], notices: [], links: [], resources: [] },
  };
  host.calls.history.add(entry);
}
await host.calls.flushHistory();

// A: the same servers and the same full history (copied in before it starts), behind the shell.
const dirA = tempDir();
copyFileSync(join(dir, HISTORY_FILE), join(dirA, HISTORY_FILE));
const split = await startBenchHeadless(dirA, { probe: true });
const serverConfig = { lifecycle: 'initialize', limits: { messageBytes: 16 * 1024 * 1024 } };
await Promise.all(Array.from({ length: SERVERS }, (_, i) => addBridgeStdio(split, `s${i}`, script, serverConfig)));
type Outcome = { status: string; error?: { message: string } };
const viaBridge = (i: number, bytes: number): Promise<Outcome> =>
  split.rpc<Outcome>('tools.call', { name: `mcp__s${i}__big`, arguments: { bytes } });
for (let i = 0; i < SERVERS; i++) {
  await untilAnswered(async () => {
    const o = await viaBridge(i, 1);
    if (o.status !== 'ok') throw new Error(o.error?.message ?? o.status);
  });
}

console.log(
  `${SERVERS} stdio servers, ${ROUNDS} interleaved rounds of ${SERVERS} concurrent tools/call each returning ${RESULT_BYTES / 1024 / 1024} MiB; ` +
    `history of ${HISTORY_ENTRIES} × ${HISTORY_TEXT / 1024} KiB (written after every call batch in B, a moment after each call in A); ${loadLine()}\n`,
);

split.resetLoop();
await sleep(3000);
show('A idle: the shell process', { ...(await split.readLoop()), seconds: 3 });
show('B idle: the single process', await measure(() => sleep(3000)));

const shellP99: number[] = [];
const shellMax: number[] = [];
const sideA = {
  name: 'A shell (split)',
  run: async (): Promise<number> => {
    split.resetLoop();
    const started = performance.now();
    const outcomes = await Promise.all(Array.from({ length: SERVERS }, (_, i) => viaBridge(i, RESULT_BYTES)));
    for (const o of outcomes) if (o.status !== 'ok') throw new Error(`call failed: ${o.error?.message ?? o.status}`);
    const f = await split.readLoop();
    show('  A: the shell while the core takes 80 MiB', { ...f, seconds: (performance.now() - started) / 1000 });
    shellP99.push(f.p99);
    shellMax.push(f.max);
    return f.p99;
  },
};
const sideB = {
  name: 'B single process',
  run: async (): Promise<number> => {
    let results = 0;
    const f = await measure(async () => {
      const outcomes = await Promise.all(
        Array.from({ length: SERVERS }, (_, i) => host.calls.call({ name: `mcp__s${i}__big`, arguments: { bytes: RESULT_BYTES } })),
      );
      for (const o of outcomes) {
        if (o.status !== 'ok') throw new Error(`call failed: ${o.error?.message ?? o.status}`);
        results += o.resultBytes ?? 0;
      }
      await host.calls.flushHistory();
    });
    show(`  B: the single process taking ${Math.round(results / 1024 / 1024)} MiB`, f);
    return f.p99;
  },
};
const compared = await interleave('event-loop delay p99 under load', ROUNDS, sideA, sideB);
await split.stop();

const { statSync } = await import('node:fs');
console.log(`history file after the run: ${(statSync(join(dir, HISTORY_FILE)).size / 1024 / 1024).toFixed(1)} MiB`);
const a99 = median(shellP99);
console.log(
  `\nshell p99 under load ${ms(a99)} (median of ${ROUNDS}; range ${ms(Math.min(...shellP99))}–${ms(Math.max(...shellP99))}; ` +
    `max ${ms(Math.max(...shellMax))}): target ≤ ${TARGET_P99_MS} ms ${a99 <= TARGET_P99_MS ? 'met' : 'NOT met'}; ` +
    `the single process's p99 is ${compared.ratio.toFixed(1)}× the shell's (range ${compared.low.toFixed(1)}–${compared.high.toFixed(1)}×)`,
);

// Where the time goes for one 8 MiB response, step by step, in this same process: what the line-parse worker does off
// the main thread, and what is left on it (copying the line's pieces into reused slabs as they arrive, spread over
// many turns; taking the worker's parsed result, whose 8 MiB string lands in fresh memory).
const { parseJSONRPCMessage } = await import('@modelcontextprotocol/client');
const { jsonByteLength } = await import('../electron/core/calls/result-size.js');
const { BoundedLineReader } = await import('../electron/core/transports/line-reader.js');
const { SlabPool } = await import('../electron/core/transports/slab-pool.js');
const line = Buffer.from(
  JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'x'.repeat(RESULT_BYTES) }] } }),
);
// Each step runs three times and its fastest run is shown, so a step measured first does not pay for warm-up.
const step = (f: () => unknown): [number, unknown] => {
  let best = Infinity;
  let r: unknown;
  for (let i = 0; i < 3; i++) {
    const s = performance.now();
    r = f();
    best = Math.min(best, performance.now() - s);
  }
  return [best, r];
};
const [decodeMs, str] = step(() => line.toString('utf8'));
const [parseMs, obj] = step(() => JSON.parse(str as string));
const slabs = new SlabPool();
const [copyMs] = step(() => {
  const reader = new BoundedLineReader(
    RESULT_BYTES * 2,
    {
      line: (l) => 'slabs' in l && slabs.give(l.slabs.map((s) => s.buffer as ArrayBuffer)),
      oversized: () => undefined,
      oversizedEnd: () => undefined,
    },
    { slabFrom: 256 * 1024, slabPool: slabs },
  );
  for (let at = 0; at < line.length; at += 16 * 1024) reader.push(line.subarray(at, at + 16 * 1024));
  reader.flush();
});
const { serialize, deserialize } = await import('node:v8');
const cloned = serialize(obj);
const [takeMs] = step(() => deserialize(cloned));
const [validateMs, msg] = step(() => parseJSONRPCMessage(obj));
const [countMs] = step(() => jsonByteLength((msg as { result: unknown }).result));
console.log(
  `one 8 MiB response (fastest of 3): on the worker, decode ${ms(decodeMs)} and JSON.parse ${ms(parseMs)}; ` +
    `on the main thread, its 512 pieces copied into reused slabs ${ms(copyMs)} in all, taking the parsed result ` +
    `from the worker (deserialising it) ${ms(takeMs)}, JSON-RPC check ${ms(validateMs)}, size count ${ms(countMs)}`,
);
await host.shutdown();
