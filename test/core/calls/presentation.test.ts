// The bounded presentation of tool results.
import { describe, expect, it } from 'vitest';
import { checkAudio, checkImage } from '../../../electron/core/calls/media.js';
import { buildPresentation, cutUtf8 } from '../../../electron/core/calls/presentation.js';
import { CallScheduler } from '../../../electron/core/calls/scheduler.js';

const limits = { resultTextBytes: 32 * 1024, mediaBytes: 5 * 1024 * 1024, mediaBlocks: 8 };
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

function png(width: number, height: number): string {
  const b = Buffer.from(PNG, 'base64');
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  return b.toString('base64');
}

describe('presentation', () => {
  it('truncates text at the budget with a marker, on a character boundary', () => {
    const p = buildPresentation({ content: [{ type: 'text', text: 'é'.repeat(40_000) }] }, limits);
    expect(p.truncated).toBe(true);
    expect(p.text).toMatch(/\[truncated: showing 32768 of 80000 bytes/);
    expect(p.text).not.toContain('\uFFFD');
    expect(cutUtf8('a😀b', 3)).toEqual({ text: 'a', cut: true, bytes: 6 });
  });

  it('turns unknown content and unsupported media into notices and ignores _meta', () => {
    const p = buildPresentation(
      {
        _meta: { secret: 'x' },
        content: [
          { type: 'hologram', data: 'x' },
          { type: 'image', mimeType: 'image/svg+xml', data: Buffer.from('<svg/>').toString('base64') },
          { type: 'audio', mimeType: 'audio/x-weird', data: 'AAAA' },
          { type: 'text', text: 'hi', _meta: { hidden: true } },
        ],
      },
      limits,
    );
    expect(p.text).toBe('hi');
    expect(p.notices).toHaveLength(3);
    expect(p.notices[0]).toMatch(/hologram/);
    expect(p.notices[1]).toMatch(/SVG/);
    expect(p.notices[2]).toMatch(/unsupported audio type/);
    expect(JSON.stringify(p)).not.toContain('secret');
  });

  it('keeps at most mediaBlocks images and the media byte budget', () => {
    const content = Array.from({ length: 10 }, () => ({ type: 'image', mimeType: 'image/png', data: PNG }));
    const p = buildPresentation({ content }, limits);
    expect(p.media).toHaveLength(8);
    expect(p.notices).toHaveLength(2);
    const small = buildPresentation({ content: [{ type: 'image', mimeType: 'image/png', data: PNG }] }, { ...limits, mediaBytes: 10 });
    expect(small.media).toHaveLength(0);
    expect(small.notices[0]).toMatch(/media budget/);
  });

  it('refuses images over the pixel caps and mislabelled bytes', () => {
    expect(checkImage('image/png', Buffer.from(png(20_000, 10), 'base64'))).toMatchObject({ ok: false });
    expect(checkImage('image/png', Buffer.from(png(8000, 8000), 'base64'))).toMatchObject({ ok: false, reason: /too large/ });
    expect(checkImage('image/jpeg', Buffer.from(PNG, 'base64'))).toMatchObject({ ok: false, reason: /bytes are image\/png/ });
    expect(checkImage('image/png', Buffer.from(png(100, 50), 'base64'))).toMatchObject({ ok: true, width: 100, height: 50 });
    expect(checkImage('image/gif', Buffer.from('GIF89a\x02\x00\x03\x00', 'latin1'))).toMatchObject({ ok: true, width: 2, height: 3 });
    expect(checkAudio('audio/mpeg', Buffer.from('ID3\x03\x00', 'latin1'))).toMatchObject({ ok: true });
    expect(checkAudio('audio/wav', Buffer.from('OggS\x00\x00\x00\x00', 'latin1'))).toMatchObject({ ok: false });
  });

  it('shows a JSON copy of structuredContent once but keeps other text', () => {
    const p = buildPresentation(
      {
        content: [
          { type: 'text', text: '{"a":1}' },
          { type: 'text', text: 'other' },
        ],
        structuredContent: { a: 1 },
      },
      limits,
    );
    expect(p.text).toBe('other');
    expect(p.structured).toBe('{\n  "a": 1\n}');
  });

  it('marks isError results', () => {
    expect(buildPresentation({ content: [{ type: 'text', text: 'bad' }], isError: true }, limits).isError).toBe(true);
  });
});

describe('scheduler', () => {
  it('is FIFO: a write queued before a read blocks that read', async () => {
    const s = new CallScheduler();
    const order: string[] = [];
    const r1 = await s.acquire('a', 'readOnlyParallel', true);
    const w = s.acquire('a', 'readOnlyParallel', false).then((rel) => (order.push('w'), rel));
    const r2 = s.acquire('a', 'readOnlyParallel', true).then((rel) => (order.push('r2'), rel));
    // One turn of the event loop runs every continuation already queued (the scheduler has no timers).
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual([]);
    r1();
    (await w)();
    (await r2)();
    expect(order).toEqual(['w', 'r2']);
  });

  it('admits a call on an idle server at once; the next serial call waits for its release, released once', async () => {
    const s = new CallScheduler();
    const first = await s.acquire('a', 'serial', false);
    expect(s.load('a')).toEqual({ running: 1, queued: 0 });
    let admitted = false;
    const second = s.acquire('a', 'serial', false).then((rel) => ((admitted = true), rel));
    await new Promise((r) => setImmediate(r));
    expect(admitted).toBe(false);
    first();
    first();
    const release = await second;
    expect(s.load('a')).toEqual({ running: 1, queued: 0 });
    release();
    expect(s.load('a')).toEqual({ running: 0, queued: 0 });
    const ac = new AbortController();
    ac.abort(new Error('gone'));
    await expect(s.acquire('a', 'serial', false, ac.signal)).rejects.toThrow('gone');
  });

  it('tryAcquire admits at once only when acquire would not queue, and never jumps the queue', async () => {
    const s = new CallScheduler();
    const first = s.tryAcquire('a', 'serial', false);
    expect(first).toBeTypeOf('function');
    expect(s.load('a')).toEqual({ running: 1, queued: 0 });
    expect(s.tryAcquire('a', 'serial', false)).toBeUndefined();
    const queued = s.acquire('a', 'serial', false);
    expect(s.load('a')).toEqual({ running: 1, queued: 1 });
    first!();
    const second = await queued;
    // Readers share with readers but not with a writer, and not past a writer that waits.
    second();
    const r1 = s.tryAcquire('b', 'readOnlyParallel', true)!;
    const r2 = s.tryAcquire('b', 'readOnlyParallel', true)!;
    expect(s.tryAcquire('b', 'readOnlyParallel', false)).toBeUndefined();
    const writer = s.acquire('b', 'readOnlyParallel', false);
    expect(s.tryAcquire('b', 'readOnlyParallel', true)).toBeUndefined();
    r1();
    r2();
    (await writer)();
    expect(s.load('b')).toEqual({ running: 0, queued: 0 });
    expect(s.tryAcquire('c', 'parallel', false)).toBeTypeOf('function');
    expect(s.load('c')).toEqual({ running: 0, queued: 0 });
  });

  it('drops a queued call whose signal aborts', async () => {
    const s = new CallScheduler();
    const first = await s.acquire('a', 'serial', false);
    const ac = new AbortController();
    const second = s.acquire('a', 'serial', false, ac.signal);
    ac.abort(new Error('stop'));
    await expect(second).rejects.toThrow('stop');
    first();
    expect(s.load('a')).toEqual({ running: 0, queued: 0 });
  });
});
