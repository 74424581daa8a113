// Issue 3 benchmark: connect-to-tools-listed and large stdio results, host vs bare SDK vs raw pipe.
// Run: npm run bench -- connect   (prints figures; not part of npm test)
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { addStdio, benchHost, bundleFixture, interleave, loadLine, median, tempDir } from './support.js';

const RUNS = Number(process.env.BENCH_ROUNDS ?? 5);
const BIG_ROUNDS = Number(process.env.BENCH_BIG_ROUNDS ?? 9);
const info = { name: 'bench', version: '0' };

async function bareConnect(script: string, n: number): Promise<number> {
  const clients: Client[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: n }, async () => {
      const client = new Client(info, { versionNegotiation: { mode: 'legacy' } });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [script], stderr: 'ignore' }));
      await client.listTools();
      clients.push(client);
    }),
  );
  const elapsed = performance.now() - t0;
  await Promise.all(clients.map((c) => c.close()));
  return elapsed;
}

async function hostConnect(script: string, n: number, lifecycle: 'auto' | 'initialize', cacheFile?: string): Promise<number> {
  const host = benchHost(tempDir(), cacheFile);
  const ids = Array.from({ length: n }, (_, i) => `s${i}`);
  for (const id of ids) await addStdio(host, id, script, { lifecycle });
  const t0 = performance.now();
  await Promise.all(ids.map(async (id) => (await host.sessions.client(id)).listTools()));
  const elapsed = performance.now() - t0;
  await host.shutdown();
  return elapsed;
}

async function bigViaClient(client: Client, bytes: number): Promise<number> {
  const t0 = performance.now();
  const r = await client.callTool({ name: 'big', arguments: { bytes } }, { timeout: 120_000 });
  const text = (r.content as { text?: string }[])[0]?.text ?? '';
  if (text.length !== bytes) throw new Error(`expected ${bytes} bytes, got ${text.length}`);
  return performance.now() - t0;
}

function rawPipeServer(): string {
  const file = join(tempDir(), 'raw.mjs');
  writeFileSync(
    file,
    `import { createInterface } from 'node:readline';
const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const req = JSON.parse(line);
  const text = 'x'.repeat(req.params.bytes);
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: req.id, result: { content: [{ type: 'text', text }] } }) + '\\n');
});`,
  );
  return file;
}

/** The raw NDJSON pipe kept open across rounds: `once(bytes)` is one request line out, one result line back. */
function rawPipe(file: string): { once(bytes: number): Promise<number>; stop(): void } {
  const child = spawn(process.execPath, [file], { stdio: ['pipe', 'pipe', 'ignore'] });
  const rl = createInterface({ input: child.stdout, crlfDelay: Infinity });
  const lines = rl[Symbol.asyncIterator]();
  let id = 0;
  return {
    once: async (bytes) => {
      const t0 = performance.now();
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: id++, method: 'big', params: { bytes } })}\n`);
      const { value } = await lines.next();
      const parsed = JSON.parse(value as string) as { result: { content: { text: string }[] } };
      if (parsed.result.content[0]?.text.length !== bytes) throw new Error('raw size mismatch');
      return performance.now() - t0;
    },
    stop: () => void child.kill(),
  };
}

async function main(): Promise<void> {
  const script = await bundleFixture('test/fixtures/servers/echo-stdio.ts');
  console.log(`Connect to tools listed (stdio), ${RUNS} interleaved rounds each:`);
  for (const n of [1, 20]) {
    const bare = { name: 'bare SDK legacy', run: () => bareConnect(script, n) };
    await interleave(`  ${n} server(s), host initialize`, RUNS, bare, { name: 'host', run: () => hostConnect(script, n, 'initialize') });
    await interleave(`  ${n} server(s), host auto, first start`, RUNS, bare, {
      name: 'host',
      run: () => hostConnect(script, n, 'auto', join(tempDir(), 'discovery-cache.json')),
    });
    await interleave(`  ${n} server(s), host auto, 2nd start (target ≤ 1.2×)`, RUNS, bare, {
      name: 'host',
      run: async () => {
        const cache = join(tempDir(), 'discovery-cache.json');
        await hostConnect(script, n, 'auto', cache);
        return hostConnect(script, n, 'auto', cache);
      },
    });
  }

  console.log(`Large results over stdio, ${BIG_ROUNDS} interleaved rounds (${loadLine()} at the start):`);
  const raw = rawPipeServer();
  const bareClient = new Client(info, { versionNegotiation: { mode: 'legacy' } });
  await bareClient.connect(
    new StdioClientTransport({ command: process.execPath, args: [script], stderr: 'ignore', maxBufferSize: 16 * 1024 * 1024 }),
  );
  const host = benchHost(tempDir());
  // An 8 MiB text result is a little over 8 MiB of JSON, so this server's message limit is raised to 16 MiB.
  await addStdio(host, 'big', script, { lifecycle: 'initialize', limits: { messageBytes: 16 * 1024 * 1024 } });
  const hostClient = await host.sessions.client('big');
  const pipe = rawPipe(raw);
  for (const bytes of [64 * 1024, 1024 * 1024, 8 * 1024 * 1024]) {
    const label = bytes < 1024 * 1024 ? `${bytes / 1024} KiB` : `${bytes / 1024 / 1024} MiB`;
    // Each round's figure is the median of 3 round trips (after one untimed one for each path).
    const per = async (once: () => Promise<number>): Promise<number> => median([await once(), await once(), await once()]);
    await pipe.once(bytes);
    await bigViaClient(bareClient, bytes);
    await bigViaClient(hostClient, bytes);
    const rawSide = { name: 'raw pipe', run: () => per(() => pipe.once(bytes)) };
    await interleave(`  ${label}, bare SDK vs raw pipe`, BIG_ROUNDS, rawSide, {
      name: 'bare SDK',
      run: () => per(() => bigViaClient(bareClient, bytes)),
    });
    await interleave(`  ${label}, host vs raw pipe (target ≤ 1.3×)`, BIG_ROUNDS, rawSide, {
      name: 'host',
      run: () => per(() => bigViaClient(hostClient, bytes)),
    });
  }
  pipe.stop();
  await bareClient.close();
  await host.shutdown();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
