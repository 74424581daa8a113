// Issue 26 benchmark: what `switchboard run` adds to the calls it makes. Per round, A is the calls' own time: N
// sequential calls of echo made by a bare SDK client to the same (bundled) fixture over stdio; B is what N calls cost
// inside `switchboard run --json` of N+1 calls: from the first call's result line on stdout to the last one's (so
// Node's start-up, the core's bootstrap, the spawn and the connect, which a wall-clock difference of two runs would
// drown the figure in on a loaded machine, are outside it; resolution, the call service, assertions, history and the
// output are inside). Also printed: the run's total wall time and the sum of the calls' durations as the core
// measured them. Goal: B / A ≤ 1.2.
// Run: npm run bench -- cli-run   (builds dist/bin/switchboard.mjs first)
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleFixture, interleave, loadLine, median, ms, tempDir } from './support.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const N = Number(process.env.BENCH_CALLS ?? 100);
const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'dist/bin/switchboard.mjs');

execFileSync(process.execPath, ['scripts/build-node.mjs'], { cwd: root, stdio: 'ignore' });
const script = await bundleFixture('test/fixtures/servers/echo-stdio.ts');
const dir = tempDir();
const config = join(dir, 'mcp.json');
writeFileSync(config, JSON.stringify({ mcpServers: { fx: { command: process.execPath, args: [script] } } }));
const collection = (n: number): string => {
  const file = join(dir, `c${n}.json`);
  const calls = Array.from({ length: n }, (_, i) => ({
    tool: 'mcp__fx__echo',
    args: { text: `hi ${i}` },
    expect: { textContains: `hi ${i}`, noIsError: true },
  }));
  writeFileSync(file, JSON.stringify({ name: `bench ${n}`, calls }));
  return file;
};
const many = collection(N + 1);
const walls: number[] = [];
const reported: number[] = [];
const overRun: number[] = [];

/** One `switchboard run --json`: its wall time, the time from its first result line to its last, and the calls' durations. */
function runCli(file: string): Promise<{ wall: number; calls: number; reported: number }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [bin, '--config', config, '--yes', 'run', file, '--json'], {
    env: { ...process.env, SWITCHBOARD_CREDENTIALS: 'memory' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let pending = '';
  let first: number | undefined;
  let last = 0;
  let reported = 0;
  let lines = 0;
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.on('data', (d: Buffer) => {
    const now = performance.now();
    pending += d.toString();
    const parts = pending.split('\n');
    pending = parts.pop() ?? '';
    for (const line of parts) {
      const r = JSON.parse(line) as { passed: boolean; durationMs: number };
      if (!r.passed) throw new Error(`an assertion failed: ${line}`);
      if (first === undefined) first = now;
      else reported += r.durationMs;
      last = now;
      lines++;
    }
  });
  return new Promise((resolve, reject) =>
    child.once('close', (code) => {
      if (code !== 0 || first === undefined || lines !== N + 1) reject(new Error(`run exited ${code} after ${lines} results: ${stderr}`));
      else resolve({ wall: performance.now() - t0, calls: last - first, reported });
    }),
  );
}

const bare = new Client({ name: 'bench', version: '0' });
await bare.connect(new StdioClientTransport({ command: process.execPath, args: [script], stderr: 'ignore' }));
for (let i = 0; i < 20; i++) await bare.callTool({ name: 'echo', arguments: { text: 'warm' } });

console.log(`${ROUNDS} interleaved rounds; ${N} sequential calls of echo {text} over stdio per side; ${loadLine()}\n`);
const result = await interleave(
  `switchboard run, ${N} calls`,
  ROUNDS,
  {
    name: "the calls' own time (bare SDK client)",
    run: async () => {
      const t0 = performance.now();
      for (let i = 0; i < N; i++) await bare.callTool({ name: 'echo', arguments: { text: `hi ${i}` } });
      return performance.now() - t0;
    },
  },
  {
    name: `${N} calls inside switchboard run`,
    run: async () => {
      const r = await runCli(many);
      walls.push(r.wall);
      reported.push(r.reported);
      overRun.push(r.calls / r.reported);
      return r.calls;
    },
  },
);
console.log(
  `switchboard run of ${N + 1} calls, whole wall time (Node start-up, bootstrap, spawn, connect included): median ${ms(median(walls))} ` +
    `(range ${ms(Math.min(...walls))}–${ms(Math.max(...walls))}); the ${N} calls' durations as the core measured them: median ${ms(median(reported))}`,
);
console.log(
  `the ${N} calls inside switchboard run / their durations as the core measured them = ${median(overRun).toFixed(2)}× ` +
    `(range ${Math.min(...overRun).toFixed(2)}–${Math.max(...overRun).toFixed(2)}×): what run adds over the core's own call`,
);
await bare.close();
console.log(`goal: ≤ 1.20× — ${result.ratio <= 1.2 ? 'met' : 'NOT met'}; ${loadLine()}`);
