// Issue 26 benchmark: `switchboard call` on an already connected server through a running app, end to end. A running
// built headless Switchboard on a temp data folder has the (bundled) echo fixture imported, approved and connected;
// per round, A is Node's own start-up (`node -e ''`, spawned and waited for), B is the whole `switchboard call
// mcp__fx__echo --server fx --json` run of the built bin (Node's start-up, reading control.json, connecting to the
// app's control door, the contract calls a call makes, the output, the exit), each the median of K spawns. Also
// printed: a bare Node script making the one tools.call through the door (the floor for a call routed this way).
// Goal: B's median wall time ≤ 150 ms; the ratio B / A says how much of it is Node's start-up.
// Run: npm run bench -- cli-call   (builds dist/ node bundles first)
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchHeadless } from '../testing/index.js';
import { CONTROL_FILE } from '../electron/shell/control-file.js';
import { bundleFixture, interleave, loadLine, median, ms, tempDir } from './support.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const K = Number(process.env.BENCH_SPAWNS ?? 5);
const GOAL_MS = 150;
const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'dist/bin/switchboard.mjs');

execFileSync(process.execPath, ['scripts/build-node.mjs'], { cwd: root, stdio: 'ignore' });
const script = await bundleFixture('test/fixtures/servers/echo-stdio.ts');
const dataDir = tempDir();
const config = join(dataDir, 'mcp.json');
writeFileSync(config, JSON.stringify({ mcpServers: { fx: { command: process.execPath, args: [script] } } }));

/** Spawns `args` with this Node and resolves with its wall time; fails on a non-zero exit. */
function wall(args: string[]): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, {
    env: { ...process.env, SWITCHBOARD_CREDENTIALS: 'memory' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) =>
    child.once('close', (code) => {
      const t = performance.now() - t0;
      if (code !== 0) reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}${stdout}`));
      else resolve(t);
    }),
  );
}

async function medianOf(k: number, once: () => Promise<number>): Promise<number> {
  const xs: number[] = [];
  for (let i = 0; i < k; i++) xs.push(await once());
  return median(xs);
}

const app = await launchHeadless({ dataDir, entry: join(root, 'dist/electron/headless.mjs') });
try {
  const cli = (...args: string[]): Promise<number> => wall([bin, '--data-dir', dataDir, ...args]);
  // Set up through the door too: import, approve, and a first call that connects the server.
  await cli('servers', 'import', config);
  await cli('servers', 'approve', 'fx', '--yes');
  const call = ['call', 'mcp__fx__echo', '--server', 'fx', '--args', '{"text":"hi"}', '--json'];
  for (let i = 0; i < 3; i++) await cli(...call);

  // The floor: one bare script, one POST of tools.call to the door (what a routed call cannot do without).
  const control = JSON.parse(readFileSync(join(dataDir, CONTROL_FILE), 'utf8')) as { url: string; token: string };
  const floor = join(dataDir, 'floor.mjs');
  writeFileSync(
    floor,
    `import { request } from 'node:http';
const body = JSON.stringify({ method: 'tools.call', args: { name: 'mcp__fx__echo', arguments: { text: 'hi' } } });
const req = request(${JSON.stringify(`${control.url}/v1/call`)}, { method: 'POST', headers: { Authorization: ${JSON.stringify(`Bearer ${control.token}`)}, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } }, (res) => {
  let text = ''; res.on('data', (d) => (text += d)); res.on('end', () => process.exit(JSON.parse(text).ok ? 0 : 1));
});
req.end(body);
`,
  );
  const floors: number[] = [];
  const walls: number[] = [];

  console.log(`${ROUNDS} interleaved rounds, ${K} spawns per side per round (their median); ${loadLine()}\n`);
  const result = await interleave(
    'switchboard call through the running app',
    ROUNDS,
    { name: "Node's start-up (node -e '')", run: () => medianOf(K, () => wall(['-e', ''])) },
    {
      name: 'switchboard call, end to end',
      run: async () => {
        const t = await medianOf(K, () => cli(...call));
        walls.push(t);
        floors.push(await medianOf(K, () => wall([floor])));
        return t;
      },
    },
  );
  console.log(
    `switchboard call wall time: median ${ms(median(walls))} (range ${ms(Math.min(...walls))}–${ms(Math.max(...walls))}); ` +
      `a bare Node script with the one tools.call through the door: median ${ms(median(floors))} ` +
      `(range ${ms(Math.min(...floors))}–${ms(Math.max(...floors))})`,
  );
  console.log(`goal: ≤ ${GOAL_MS} ms end to end — ${result.b <= GOAL_MS ? 'met' : 'NOT met'} (median ${ms(result.b)}); ${loadLine()}`);
} finally {
  const report = await app.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(join(script, '..'), { recursive: true, force: true });
  if (report.problems.length > 0) {
    console.error(`Switchboard did not stop cleanly:\n${report.problems.join('\n')}`);
    process.exitCode = 1;
  }
}
