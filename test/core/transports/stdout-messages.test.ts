// A server's stdout bytes into ordered JSON-RPC messages, on its own: lines in order across the worker (a large line
// and the small ones after it), non-JSON lines skipped and logged, an over-limit response answered with a typed
// error for its request, and nothing delivered once the transport has closed.
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { LineParsePool, OFF_THREAD_BYTES } from '../../../electron/core/transports/line-parse-pool.js';
import { LIMIT_EXCEEDED_RPC_CODE, StdoutMessages } from '../../../electron/core/transports/stdout-messages.js';
import { collectLog } from './helpers.js';

const pools: LineParsePool[] = [];
afterEach(async () => Promise.all(pools.splice(0).map((p) => p.close())));

function reader(messageBytes = 16 * 1024 * 1024) {
  const pool = new LineParsePool();
  pools.push(pool);
  const { log, lines } = collectLog();
  const got: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  let closed = false;
  const m = new StdoutMessages(
    { serverId: 's', messageBytes, log, lineParser: pool },
    { message: (x) => got.push(x), error: (e) => errors.push(e), closed: () => closed },
  );
  return { m, got, errors, lines, close: () => (closed = true) };
}

const note = (i: number, pad = 0): string =>
  JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `${i}:${'x'.repeat(pad)}` } });
const data = (m: JSONRPCMessage | undefined): string => (m as unknown as { params: { data: string } }).params.data;
const order = (got: JSONRPCMessage[]): string[] => got.map((g) => data(g).split(':')[0]!);

describe('StdoutMessages', () => {
  it('delivers a large line (parsed on the worker) and the small lines after it in the order written', async () => {
    const { m, got } = reader();
    const text = [note(1), note(2, OFF_THREAD_BYTES * 3), note(3), note(4, OFF_THREAD_BYTES), note(5)].join('\n') + '\n';
    const bytes = Buffer.from(text);
    for (let at = 0; at < bytes.length; at += 50_000) m.push(bytes.subarray(at, at + 50_000));
    await m.delivered();
    expect(order(got)).toEqual(['1', '2', '3', '4', '5']);
    expect(data(got[1]).length).toBe(2 + OFF_THREAD_BYTES * 3);
  });

  it('skips and logs a line that is no JSON-RPC message; reads a last line without its newline on flush', async () => {
    const { m, got, lines } = reader();
    m.push(Buffer.from(`not json\n{"a":1}\n${note(7)}`));
    expect(got).toHaveLength(0);
    m.flush();
    await m.delivered();
    expect(order(got)).toEqual(['7']);
    expect(m.stats.skippedLines).toBe(2);
    expect(lines.filter((l) => l.text.includes('Skipped a stdout line')).length).toBe(2);
  });

  it('answers the request of an over-limit response with a typed error, and reads on', async () => {
    const { m, got, errors } = reader(1000);
    m.push(Buffer.from(`{"jsonrpc":"2.0","id":42,"result":{"text":"${'y'.repeat(5000)}"}}\n${note(8)}\n`));
    await m.delivered();
    expect(errors.map((e) => (e as { code?: string }).code)).toEqual(['limit_exceeded']);
    expect(got[0]).toMatchObject({ id: 42, error: { code: LIMIT_EXCEEDED_RPC_CODE, data: { code: 'limit_exceeded' } } });
    expect(order(got.slice(1))).toEqual(['8']);
    expect(m.stats).toMatchObject({ oversizedLines: 1 });
  });

  it('delivers nothing once the transport has closed', async () => {
    const { m, got, close } = reader();
    close();
    m.push(Buffer.from(`${note(9)}\n`));
    await m.delivered();
    expect(got).toEqual([]);
  });
});
