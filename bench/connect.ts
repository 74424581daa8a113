// Issue 3 benchmark: connect-to-tools-listed and large stdio results, host vs bare SDK vs raw pipe.
// Run: npm run bench -- connect   (prints figures; not part of npm test)
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { addStdio, benchHost, bundleFixture, median, ms, tempDir } from './support.js';

const RUNS = 3;
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

async function rawPipe(file: string, bytes: number, runs: number): Promise<number[]> {
  const child = spawn(process.execPath, [file], { stdio: ['pipe', 'pipe', 'ignore'] });
  const rl = createInterface({ input: child.stdout, crlfDelay: Infinity });
  const lines = rl[Symbol.asyncIterator]();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: i, method: 'big', params: { bytes } })}\n`);
    const { value } = await lines.next();
    const parsed = JSON.parse(value as string) as { result: { content: { text: string }[] } };
    if (parsed.result.content[0]?.text.length !== bytes) throw new Error('raw size mismatch');
    times.push(performance.now() - t0);
  }
  child.kill();
  return times;
}

async function main(): Promise<void> {
  const script = await bundleFixture('test/fixtures/servers/echo-stdio.ts');
  console.log(`Connect to tools listed (stdio, median of ${RUNS}):`);
  for (const n of [1, 20]) {
    const bare: number[] = [];
    const hostLegacy: number[] = [];
    const hostAutoFirst: number[] = [];
    const hostAutoCached: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      bare.push(await bareConnect(script, n));
      hostLegacy.push(await hostConnect(script, n, 'initialize'));
      const cache = join(tempDir(), 'discovery-cache.json');
      hostAutoFirst.push(await hostConnect(script, n, 'auto', cache));
      hostAutoCached.push(await hostConnect(script, n, 'auto', cache));
    }
    const b = median(bare);
    console.log(`  ${n} server(s): bare SDK legacy ${ms(b)}`);
    console.log(`    host initialize       ${ms(median(hostLegacy))}  (${(median(hostLegacy) / b).toFixed(2)}x)`);
    console.log(`    host auto, first      ${ms(median(hostAutoFirst))}  (${(median(hostAutoFirst) / b).toFixed(2)}x)`);
    console.log(`    host auto, 2nd start  ${ms(median(hostAutoCached))}  (${(median(hostAutoCached) / b).toFixed(2)}x)  target <= 1.2x`);
  }

  console.log(`Large results over stdio (median of 5):`);
  const raw = rawPipeServer();
  const bareClient = new Client(info, { versionNegotiation: { mode: 'legacy' } });
  await bareClient.connect(
    new StdioClientTransport({ command: process.execPath, args: [script], stderr: 'ignore', maxBufferSize: 16 * 1024 * 1024 }),
  );
  const host = benchHost(tempDir());
  // An 8 MiB text result is a little over 8 MiB of JSON, so this server's message limit is raised to 16 MiB.
  await addStdio(host, 'big', script, { lifecycle: 'initialize', limits: { messageBytes: 16 * 1024 * 1024 } });
  const hostClient = await host.sessions.client('big');
  for (const bytes of [1024 * 1024, 8 * 1024 * 1024]) {
    const b: number[] = [];
    const h: number[] = [];
    for (let i = 0; i < 5; i++) {
      b.push(await bigViaClient(bareClient, bytes));
      h.push(await bigViaClient(hostClient, bytes));
    }
    const p = median(await rawPipe(raw, bytes, 5));
    const label = `${bytes / 1024 / 1024} MiB`;
    console.log(
      `  ${label}: raw pipe ${ms(p)}, bare SDK ${ms(median(b))} (${(median(b) / p).toFixed(2)}x), host ${ms(median(h))} (${(median(h) / p).toFixed(2)}x)${bytes > 1024 * 1024 ? '  target host <= 1.5x raw' : ''}`,
    );
  }
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
