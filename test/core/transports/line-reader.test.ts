// Unit tests for the bounded line reader and the stderr byte ring.
import { describe, expect, it } from 'vitest';
import {
  BoundedLineReader,
  ByteRing,
  responseIdFromEdges,
  SLAB_BYTES,
  SlabLine,
  type LineBytes,
} from '../../../electron/core/transports/line-reader.js';

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

describe('BoundedLineReader: large lines in slabs', () => {
  function slabReader(limit: number, slabFrom: number) {
    const lines: LineBytes[] = [];
    const events: string[] = [];
    const heads: string[] = [];
    const r = new BoundedLineReader(
      limit,
      {
        line: (b) => lines.push(b),
        large: () => events.push('large'),
        oversized: (l) => events.push(`over:${l}`),
        oversizedEnd: (n, head) => (events.push(`end:${n}`), heads.push(head.toString())),
      },
      { slabFrom },
    );
    return { r, lines, events, heads };
  }

  /** `bytes` pseudo-random printable bytes, so a misplaced piece shows. */
  const text = (bytes: number): Buffer => Buffer.from(Array.from({ length: bytes }, (_, i) => 33 + ((i * 7919) % 90)));

  it('copies a line that reaches the slab size into slabs of its own as it streams, byte for byte', () => {
    const big = text(2 * SLAB_BYTES + 12_345);
    const { r, lines, events } = slabReader(8 * SLAB_BYTES, 1000);
    // Odd chunk sizes, the newline inside a chunk, then a short line in the same chunk.
    for (let at = 0; at < big.length; at += 65_521) r.push(big.subarray(at, Math.min(big.length, at + 65_521)));
    r.push(Buffer.from('\nshort\n'));
    expect(events).toEqual(['large']);
    expect(lines).toHaveLength(2);
    const line = lines[0] as SlabLine;
    expect(line).toBeInstanceOf(SlabLine);
    expect(line.length).toBe(big.length);
    expect(line.join().equals(big)).toBe(true);
    // Each slab is on a buffer of its own (it can be handed to another thread), none larger than a slab.
    expect(new Set(line.slabs.map((s) => s.buffer)).size).toBe(line.slabs.length);
    expect(line.slabs.every((s) => s.byteOffset === 0 && s.buffer.byteLength === SLAB_BYTES)).toBe(true);
    expect(line.slabs.map((s) => s.length)).toEqual([SLAB_BYTES, SLAB_BYTES, 12_345]);
    expect(Buffer.isBuffer(lines[1]) && lines[1].toString()).toBe('short');
    expect(r.pendingBytes).toBe(0);
  });

  it('keeps a line below the slab size as one buffer, and says "large" once per large line', () => {
    const { r, lines, events } = slabReader(1_000_000, 100);
    r.push(Buffer.from(`${'a'.repeat(99)}\n${'b'.repeat(100)}\n${'c'.repeat(250)}\n`));
    expect(events).toEqual(['large', 'large']);
    expect(lines.map((l) => (l instanceof SlabLine ? `slab:${l.join().toString()}` : l.toString()))).toEqual([
      'a'.repeat(99),
      `slab:${'b'.repeat(100)}`,
      `slab:${'c'.repeat(250)}`,
    ]);
  });

  it('discards a large line that goes over the limit, keeping its head, and reads on', () => {
    const { r, lines, events, heads } = slabReader(5000, 100);
    r.push(Buffer.from('{"id":7,'));
    r.push(Buffer.alloc(3000, 0x61));
    r.push(Buffer.alloc(3000, 0x62));
    r.push(Buffer.from('}\n{"ok":1}\n'));
    expect(events).toEqual(['large', 'over:5000', `end:${8 + 6000 + 1}`]);
    expect(heads[0]).toBe(`{"id":7,${'a'.repeat(248)}`);
    expect(lines.map((l) => l.toString())).toEqual(['{"ok":1}']);
    expect(r.peakPendingBytes).toBeLessThanOrEqual(5000);
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
