// JSON text nested deeper than the limit is cut before parsing, in one pass and across chunk boundaries, and stays
// valid JSON: strings holding brackets, quotes and escapes are never mistaken for structure.
import { describe, expect, it } from 'vitest';
import { jsonDepth } from '../../../electron/core/ingress/depth.js';
import { cutJsonDepth, JsonDepthCutter } from '../../../electron/core/ingress/depth-text.js';

const cut = (text: string, limit: number): string => cutJsonDepth(Buffer.from(text), limit, 'CUT').bytes.toString();

describe('cutJsonDepth', () => {
  it('leaves JSON within the limit untouched (the same buffer)', () => {
    const bytes = Buffer.from('{"a":[1,{"b":"[[{{"}],"c":"\\"]"}');
    const out = cutJsonDepth(bytes, 3, 'CUT');
    expect(out.cut).toBe(false);
    expect(out.bytes).toBe(bytes);
  });

  it('replaces containers deeper than the limit with the marker, keeping siblings', () => {
    expect(JSON.parse(cut('{"a":{"b":{"c":1}},"d":[1,[2,[3]],4],"e":"x"}', 2))).toEqual({
      a: { b: 'CUT' },
      d: [1, 'CUT', 4],
      e: 'x',
    });
  });

  it('is not fooled by brackets, quotes and escapes inside strings', () => {
    const text = JSON.stringify({ s: '{[{[', t: 'a"b\\', u: ['}]', { v: '\\"[' }] });
    expect(cut(text, 3)).toBe(text);
    expect(JSON.parse(cut(text, 2))).toEqual({ s: '{[{[', t: 'a"b\\', u: ['}]', 'CUT'] });
  });

  it('cuts a 4-million-level text to a parseable, bounded value', () => {
    const n = 4_000_000;
    const value = JSON.parse(cut(`{"x":${'['.repeat(n)}${']'.repeat(n)},"y":2}`, 64)) as unknown;
    expect(jsonDepth(value)).toBe(64);
    expect(value).toMatchObject({ y: 2 });
  });

  it('gives the same result whatever the chunk boundaries', () => {
    const text = `{"a":"x[y","b":${'{"c":'.repeat(40)}"\\"}"${'}'.repeat(40)},"d":[${'['.repeat(30)}1${']'.repeat(30)}]}`;
    const whole = cut(text, 10);
    const bytes = Buffer.from(text);
    for (const size of [1, 2, 3, 7, 64]) {
      const cutter = new JsonDepthCutter(10, 'CUT');
      const parts: Uint8Array[] = [];
      for (let i = 0; i < bytes.length; i += size) parts.push(...cutter.push(bytes.subarray(i, i + size)));
      expect(Buffer.concat(parts).toString()).toBe(whole);
    }
    expect(jsonDepth(JSON.parse(whole))).toBe(10);
  });
});
