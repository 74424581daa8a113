// Idle memory benchmark: resident memory of Switchboard with 20 stdio servers connected, idle.
//   A: split processes, as shipped: the headless launcher (shell) plus its core process (their sum; the servers'
//      own processes are the same on both sides and are not counted).
//   B: the single process of before the split: the same core in one process (lib/single-process.ts; the bridge and
//      static server aside, so B is slightly flattered).
// A fresh A and B are started in every round, interleaved; the ratio A/B is printed per round's median with its range.
// The goal: A ≤ 1.3× B.
// Run: npm run bench -- idle-rss   (prints figures; not part of npm test)
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { bundleFixture, loadLine, median, tempDir } from './support.js';
import { addBridgeStdio, rssMiB, startBenchHeadless } from './lib/headless-bridge.js';

const SERVERS = Number(process.env.BENCH_SERVERS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Idle time before reading memory (connect-time garbage settles, timers run once). */
const SETTLE_MS = 5000;
const GOAL = 1.3;

const script = await bundleFixture('test/fixtures/servers/echo-stdio.ts');
const single = fileURLToPath(new URL('./lib/single-process.ts', import.meta.url));

async function splitRss(): Promise<{ shell: number; core: number }> {
  const app = await startBenchHeadless(tempDir());
  try {
    await Promise.all(Array.from({ length: SERVERS }, (_, i) => addBridgeStdio(app, `s${i}`, script)));
    await sleep(SETTLE_MS);
    const core = app.corePid();
    if (core === undefined) throw new Error('no core process');
    return { shell: rssMiB(app.shell.pid!), core: rssMiB(core) };
  } finally {
    await app.stop();
  }
}

async function singleRss(): Promise<number> {
  const child = spawn(process.execPath, ['--import', 'tsx', single, tempDir(), script, String(SERVERS), String(SETTLE_MS)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the single process exited with ${String(code)}`)));
  });
  const rss = rssMiB(child.pid!);
  const gone = new Promise((r) => child.once('exit', r));
  child.stdin.end();
  await gone;
  if (!line.startsWith('idle')) throw new Error(`unexpected: ${line}`);
  return rss;
}

console.log(`${SERVERS} stdio servers connected, idle ${SETTLE_MS / 1000} s, ${ROUNDS} interleaved rounds; ${loadLine()}`);
const ratios: number[] = [];
const as: number[] = [];
const bs: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  let a: { shell: number; core: number };
  let b: number;
  if (round % 2 === 0) {
    a = await splitRss();
    b = await singleRss();
  } else {
    b = await singleRss();
    a = await splitRss();
  }
  const sum = a.shell + a.core;
  as.push(sum);
  bs.push(b);
  ratios.push(sum / b);
  console.log(
    `  round ${round + 1}: A shell ${a.shell.toFixed(0)} MiB + core ${a.core.toFixed(0)} MiB = ${sum.toFixed(0)} MiB; B single process ${b.toFixed(0)} MiB; A/B ${(sum / b).toFixed(2)}×`,
  );
}
const ratio = median(ratios);
console.log(
  `idle RSS with ${SERVERS} servers: A (shell + core) ${median(as).toFixed(0)} MiB, B (single process) ${median(bs).toFixed(0)} MiB; ` +
    `A/B = ${ratio.toFixed(2)}× (range ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}×; goal ≤ ${GOAL}×: ${ratio <= GOAL ? 'met' : 'NOT met'}); ${loadLine()}`,
);
