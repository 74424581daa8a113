// Unit tests for the bounded line reader and the stderr byte ring.
import { describe, expect, it } from 'vitest';
import { BoundedLineReader, ByteRing, responseIdFromEdges } from '../../../electron/core/transports/line-reader.js';

function reader(limit: number) {
  const lines: string[] = [];
  const events: string[] = [];
  const r = new BoundedLineReader(limit, {
    line: (b) => lines.push(b.toString()),
    oversized: (l) => events.push(`over:${l}`),
    oversizedEnd: (n) => events.push(`end:${n}`),
  });
  return { r, lines, events };
}

describe('BoundedLineReader', () => {
  it('joins a line split over many chunks and splits many lines in one chunk', () => {
    const { r, lines } = reader(100);
    r.push(Buffer.from('ab'));
    r.push(Buffer.from('cd\nef\ngh'));
    r.push(Buffer.from('\n'));
    expect(lines).toEqual(['abcd', 'ef', 'gh']);
  });

  it('discards an over-limit line as it streams and keeps reading later lines', () => {
    const { r, lines, events } = reader(10);
    r.push(Buffer.from('12345'));
    r.push(Buffer.from('67890X'));
    expect(events).toEqual(['over:10']);
    expect(r.pendingBytes).toBe(0);
    for (let i = 0; i < 1000; i++) r.push(Buffer.alloc(1000, 0x61));
    expect(r.pendingBytes).toBe(0);
    r.push(Buffer.from('tail\nok\n'));
    expect(events).toEqual(['over:10', `end:${11 + 1000 * 1000 + 4}`]);
    expect(lines).toEqual(['ok']);
    expect(r.peakPendingBytes).toBe(5);
  });

  it('accepts a line of exactly the limit', () => {
    const { r, lines, events } = reader(4);
    r.push(Buffer.from('abcd\n'));
    expect(lines).toEqual(['abcd']);
    expect(events).toEqual([]);
  });

  it('flushes a trailing line without newline', () => {
    const { r, lines } = reader(10);
    r.push(Buffer.from('last'));
    r.flush();
    expect(lines).toEqual(['last']);
  });
});

describe('ByteRing', () => {
  it('keeps only the last capacity bytes', () => {
    const ring = new ByteRing(64 * 1024);
    for (let i = 0; i < 10000; i++) ring.push(Buffer.from(`line ${i}\n`));
    expect(ring.size).toBe(64 * 1024);
    expect(ring.tail(2)).toEqual(['line 9998', 'line 9999']);
    ring.push(Buffer.alloc(100 * 1024, 0x7a));
    expect(ring.size).toBe(64 * 1024);
  });
});

describe('responseIdFromEdges', () => {
  const edges = (line: string): [Buffer, Buffer] => [Buffer.from(line.slice(0, 256)), Buffer.from(line.slice(-256))];
  const big = 'x'.repeat(5000);

  it('finds a leading id after jsonrpc', () => {
    expect(responseIdFromEdges(...edges(`{"jsonrpc":"2.0","id":7,"result":{"text":"${big}"}}`))).toBe(7);
  });

  it('finds a trailing id when the result comes first', () => {
    expect(responseIdFromEdges(...edges(`{"result":{"content":[{"id":99,"text":"${big}"}]},"jsonrpc":"2.0","id":"abc"}`))).toBe('abc');
  });

  it('ignores requests and notifications, and ids nested in the result', () => {
    expect(responseIdFromEdges(...edges(`{"jsonrpc":"2.0","method":"notifications/message","params":{"t":"${big}"}}`))).toBeUndefined();
    expect(
      responseIdFromEdges(...edges(`{"jsonrpc":"2.0","id":3,"method":"sampling/createMessage","params":{"t":"${big}"}}`)),
    ).toBeUndefined();
    expect(responseIdFromEdges(...edges(`{"result":{"items":[{"id":5,"t":"${big}"}],"more":true}}`))).toBeUndefined();
  });
});
