// Occurrence checks and payload bounds: size limit, nesting cut, inert JSON text, labels, event ids.
import { describe, expect, it } from 'vitest';
import {
  checkOccurrence,
  DEPTH_MARKER,
  displayPayload,
  inertJson,
  isRefused,
  label,
  MAX_EVENT_BYTES,
  MAX_PAYLOAD_DEPTH,
  storePayload,
} from '../../../electron/core/events/payload.js';

const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200B-\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069\uFEFF]/;

describe('storePayload', () => {
  it('keeps a payload within the limit as compact JSON and measures its wire size', () => {
    const stored = storePayload({ a: 1, b: 'é' });
    expect(stored).toEqual({ json: '{"a":1,"b":"é"}', bytes: 16, depthCut: false });
  });

  it('refuses a payload over 256 KiB, reporting its size', () => {
    expect(storePayload({ x: 'y'.repeat(MAX_EVENT_BYTES) })).toEqual({ tooLarge: MAX_EVENT_BYTES + 8 });
    expect('json' in storePayload({ x: 'y'.repeat(MAX_EVENT_BYTES - 8) })).toBe(true);
  });

  it('cuts nesting below 32 levels without recursing through a hostile depth', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const huge = storePayload(deep);
    // Too deep to even serialize: refused as oversize (never a stack overflow).
    expect('tooLarge' in huge || ('json' in huge && huge.depthCut)).toBe(true);
    let forty: unknown = 'leaf';
    for (let i = 0; i < 40; i++) forty = { d: forty };
    const cut = storePayload(forty);
    if (!('json' in cut)) throw new Error('expected a stored payload');
    expect(cut.depthCut).toBe(true);
    expect(cut.json).toContain(DEPTH_MARKER);
    expect(cut.json.split('{').length - 1).toBe(MAX_PAYLOAD_DEPTH);
  });

  it('makes control, bidi and zero-width characters visible escapes; the text stays valid JSON', () => {
    const data = { s: 'a\u202Eb\u200Bc\u0085d\u007Fe\u2028f\uFEFFg\u001b[31m' };
    const stored = storePayload(data);
    if (!('json' in stored)) throw new Error('expected a stored payload');
    expect(stored.json).not.toMatch(UNSAFE);
    expect(JSON.parse(stored.json)).toEqual(data);
    expect(inertJson('"\u202E"')).toBe('"\\u202e"');
  });
});

describe('displayPayload', () => {
  it('pretty-prints, stays inert and cuts at the display budget with a marker', () => {
    expect(displayPayload('{"a":[1,2]}')).toEqual({ text: '{\n  "a": [\n    1,\n    2\n  ]\n}', truncated: false });
    const long = displayPayload(JSON.stringify({ s: 'x'.repeat(5000) }), 1000);
    expect(long.truncated).toBe(true);
    expect(long.text).toMatch(/… \(cut: \d+ bytes in all\)$/);
    expect(Buffer.byteLength(long.text.split('\n…')[0] ?? '', 'utf8')).toBeLessThanOrEqual(1000);
  });
});

describe('checkOccurrence', () => {
  const now = 1_700_000_000_000;
  it('accepts a well-formed occurrence and parses its timestamp', () => {
    const occ = checkOccurrence({ eventId: 'e1', name: 'x', timestamp: '2026-02-19T15:30:00Z', data: { a: 1 }, cursor: 'c1' }, 'x', now);
    expect(isRefused(occ)).toBe(false);
    expect(occ).toMatchObject({ eventId: 'e1', name: 'x', time: Date.parse('2026-02-19T15:30:00Z'), cursor: 'c1' });
  });

  it('falls back to the receive time for a bad timestamp and to the subscription type for a missing name', () => {
    expect(checkOccurrence({ eventId: 'e1', timestamp: 'yesterday', data: {} }, 'sub.type', now)).toMatchObject({
      name: 'sub.type',
      time: now,
      timestamp: 'yesterday',
    });
  });

  it('refuses occurrences without an event id, with an oversized id, and over the size limit (keeping the cursor)', () => {
    expect(checkOccurrence({ name: 'x', data: {}, cursor: 'c9' }, 'x', now)).toEqual({
      reason: 'An occurrence had no eventId and was skipped',
      cursor: 'c9',
    });
    expect(checkOccurrence('nope', 'x', now)).toEqual({ reason: 'An occurrence was not an object and was skipped' });
    const longId = checkOccurrence({ eventId: 'i'.repeat(2000), data: {} }, 'x', now);
    expect(isRefused(longId) && longId.reason).toMatch(/eventId is over 1024 bytes/);
    const big = checkOccurrence({ eventId: 'big', name: 'x', data: { b: 'z'.repeat(1024 * 1024) }, cursor: 'c2' }, 'x', now);
    expect(big).toMatchObject({
      rawEventId: 'big',
      cursor: 'c2',
      reason: 'Event big of x was skipped: its data is 1.0 MiB, over the 256 KiB limit',
    });
  });

  it('labels strip escapes, controls and bidi characters and cut long text', () => {
    expect(label('a\u001b[31mb\u202Ec\nd')).toBe('abc d');
    expect(label('x'.repeat(300))).toHaveLength(257);
  });
});
