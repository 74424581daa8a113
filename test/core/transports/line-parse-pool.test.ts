// Large stdout lines are parsed on a worker thread; the result is the same as on the main thread, lines keep their
// order through the stdio transport, and a worker that cannot start or dies costs speed, never a line.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { parseLine } from '../../../electron/core/transports/line-parse.js';
import { LineParsePool, lineParseWorker, OFF_THREAD_BYTES } from '../../../electron/core/transports/line-parse-pool.js';
import { SlabLine } from '../../../electron/core/transports/line-reader.js';
import { SLAB_BYTES, SlabPool } from '../../../electron/core/transports/slab-pool.js';
import { StdioTransport } from '../../../electron/core/transports/stdio-transport.js';
import { collectLog, pidGone, REPO_ROOT } from './helpers.js';

const pools: LineParsePool[] = [];
const transports: StdioTransport[] = [];
afterEach(async () => {
  await Promise.all(transports.splice(0).map((t) => t.release()));
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

function pool(locate?: ConstructorParameters<typeof LineParsePool>[0], slabs = new SlabPool()): LineParsePool {
  const p = new LineParsePool(locate, slabs);
  pools.push(p);
  return p;
}

const bigNote = (i: number, bytes: number): string =>
  JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `${i}:${'x'.repeat(bytes)}` } });

describe('parseLine', () => {
  it('parses JSON, drops a trailing CR, skips blank lines and quotes what is not JSON', () => {
    expect(parseLine(Buffer.from('{"a":1}\r'))).toMatchObject({ kind: 'json', value: { a: 1 }, cut: false });
    expect(parseLine(Buffer.from('  \r'))).toEqual({ kind: 'blank' });
    const bad = parseLine(Buffer.from(`not json ${'y'.repeat(500)}`));
    expect(bad.kind).toBe('not_json');
    expect(bad.kind === 'not_json' && bad.quote.length).toBe(201);
  });

  it('cuts nesting deeper than the wire limit before parsing', () => {
    const deep = `${'['.repeat(600)}1${']'.repeat(600)}`;
    const parsed = parseLine(Buffer.from(deep));
    expect(parsed).toMatchObject({ kind: 'json', cut: true });
  });
});

describe('LineParsePool', () => {
  it('finds the worker beside the source module (tsx) and beside a built bundle, unpacked from an asar archive', () => {
    expect(lineParseWorker()?.file).toMatch(/electron\/core\/transports\/line-parse-worker\.ts$/);
    expect(lineParseWorker()?.bootstrap).toContain('tsx');
    // A built layout of its own, so the test does not depend on the repository's dist/ being built.
    const app = mkdtempSync(join(tmpdir(), 'line-parse-'));
    try {
      for (const dir of ['dist/electron', 'app.asar.unpacked/dist/electron']) {
        mkdirSync(join(app, dir), { recursive: true });
        writeFileSync(join(app, dir, 'line-parse-worker.mjs'), '');
      }
      expect(lineParseWorker(`file://${app}/dist/electron/main.mjs`)).toEqual({ file: `${app}/dist/electron/line-parse-worker.mjs` });
      expect(lineParseWorker(`file://${app}/app.asar/dist/electron/main.mjs`)).toEqual({
        file: `${app}/app.asar.unpacked/dist/electron/line-parse-worker.mjs`,
      });
      expect(lineParseWorker(`file://${app}/nowhere/main.mjs`)).toBeUndefined();
    } finally {
      rmSync(app, { recursive: true, force: true });
    }
  });

  it('parses on the worker what the main thread would, in the order asked', async () => {
    const p = pool();
    const lines = [bigNote(1, OFF_THREAD_BYTES), '{"jsonrpc":"2.0","id":2,"result":{}}', bigNote(3, 2 * OFF_THREAD_BYTES)];
    const parsed = await Promise.all(lines.map((l) => p.parse(Buffer.from(l))));
    expect(p.offThread).toBe(true);
    expect(parsed).toEqual(lines.map((l) => parseLine(Buffer.from(l))));
  });

  it('parses on the calling thread when the worker cannot start', async () => {
    const p = pool(() => ({ file: `${REPO_ROOT}/test/fixtures/does-not-exist.mjs` }));
    // A large line that owns its buffer, given before the worker ever answered, is not lost with it.
    const big = bigNote(2, OFF_THREAD_BYTES);
    const [parsed, bigParsed] = await Promise.all([
      p.parse(Buffer.from('{"jsonrpc":"2.0","id":1,"result":{}}')),
      p.parse(Buffer.from(big)),
    ]);
    expect(parsed).toMatchObject({ kind: 'json', value: { id: 1 } });
    expect(bigParsed).toEqual(parseLine(Buffer.from(big)));
    // The missing file is found out when the worker fails to load; later lines are parsed here.
    for (let i = 0; p.offThread && i < 200; i++) await sleep(25);
    expect(p.offThread).toBe(false);
    expect(await p.parse(Buffer.from('{"b":2}'))).toMatchObject({ kind: 'json', value: { b: 2 } });
  });

  it('hands a slab line to the worker without a copy, once the worker has answered (a line given earlier waits)', async () => {
    const line = Buffer.from(bigNote(5, 3 * OFF_THREAD_BYTES));
    const slabsOf = (): SlabLine => {
      const slabs = [0, 1, 2, 3].map((i) => Uint8Array.from(line.subarray((i * line.length) >> 2, ((i + 1) * line.length) >> 2)));
      return new SlabLine(slabs, line.length);
    };
    const p = pool();
    expect(p.handsOver).toBe(false);
    // Given before the worker ever answered: it waits for the worker's first answer, then goes over without a copy.
    const first = slabsOf();
    const parsed = p.parse(first);
    expect(first.slabs.every((s) => s.byteLength > 0)).toBe(true);
    expect(await parsed).toEqual(parseLine(line));
    expect(first.slabs.every((s) => s.byteLength === 0)).toBe(true);
    // From then on, at once.
    expect(p.handsOver).toBe(true);
    const next = slabsOf();
    const nextParsed = p.parse(next);
    expect(next.slabs.every((s) => s.byteLength === 0)).toBe(true);
    expect(await nextParsed).toEqual(parseLine(line));
    // A line on a buffer it shares is lent by copy and stays usable here.
    const shared = Buffer.from(`${bigNote(6, OFF_THREAD_BYTES)}\nmore`).subarray(0, -5);
    expect(await p.parse(shared)).toEqual(parseLine(shared));
    expect(shared.byteLength).toBeGreaterThan(OFF_THREAD_BYTES);

    // The worker hands whole slabs back for the next large line.
    const slabs = new SlabPool();
    const r = pool(undefined, slabs);
    const whole = (): SlabLine => {
      const a = new Uint8Array(SLAB_BYTES);
      const text = Buffer.from('{"jsonrpc":"2.0","id":9,"result":{}}');
      a.set(text);
      return new SlabLine([a.subarray(0, text.length)], text.length);
    };
    expect(await r.parse(whole())).toMatchObject({ kind: 'json', value: { id: 9 } });
    await r.parse(whole());
    expect(slabs.idle).toBe(2);

    // warm() readies a fresh worker before its first large line.
    const q = pool();
    q.warm();
    for (let i = 0; !q.handsOver && i < 400; i++) await sleep(10);
    expect(q.handsOver).toBe(true);
  });

  it('loses no line when the worker is stopped while parsing', async () => {
    const p = pool();
    const line = bigNote(7, 4 * OFF_THREAD_BYTES);
    await p.parse(Buffer.from('{"warm":1}'));
    const inFlight = p.parse(Buffer.from(line));
    await p.close();
    expect(await inFlight).toEqual(parseLine(Buffer.from(line)));
  });
});

describe('stdio transport with off-thread parsing', () => {
  it('delivers a large line and the small lines after it in the order the server wrote them, before it reports the exit', async () => {
    // A server that writes big, small, big, small, then exits at once.
    const script = `
      const big = (i) => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: i + ':' + 'x'.repeat(${OFF_THREAD_BYTES * 2}) } });
      const small = (i) => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: i + ':small' } });
      process.stdout.write([big(1), small(2), big(3), small(4)].join('\\n') + '\\n', () => process.exit(0));
    `;
    const { log } = collectLog();
    const t = new StdioTransport({
      serverId: 'order',
      command: process.execPath,
      args: ['-e', script],
      cwd: REPO_ROOT,
      env: {},
      inheritEnv: false,
      messageBytes: 16 * 1024 * 1024,
      log,
      lineParser: pool(),
    });
    transports.push(t);
    const seen: string[] = [];
    const closed = new Promise<void>((resolve) => (t.onclose = () => resolve()));
    t.onerror = () => undefined;
    t.onmessage = (m: JSONRPCMessage) => {
      const data = (m as { params?: { data?: string } }).params?.data ?? '';
      seen.push(data.slice(0, data.indexOf(':')));
    };
    await t.start();
    const pid = t.pid;
    await closed;
    expect(seen).toEqual(['1', '2', '3', '4']);
    expect(pid).not.toBeNull();
    expect(await pidGone(pid!)).toBe(true);
  });
});
