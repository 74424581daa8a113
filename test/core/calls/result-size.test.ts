// The result size the call service reports is the UTF-8 length of the JSON text, computed without building it.
import { describe, expect, it } from 'vitest';
import { jsonByteLength, LONG_STRING } from '../../../electron/core/calls/result-size.js';

const exact = (v: unknown): number => Buffer.byteLength(JSON.stringify(v) ?? '', 'utf8');

describe('jsonByteLength', () => {
  it.each([
    ['a plain result', { content: [{ type: 'text', text: 'hello' }], isError: false }],
    ['escapes and control characters', { text: 'quote " backslash \\ tab \t nl \n bell \u0007 nul \u0000' }],
    ['non-ASCII', { text: 'café ☕ 𝄞 中文', ключ: 'значение' }],
    ['strings either side of the short-string count', { a: `${'x'.repeat(124)}"é☕\u007f`, b: `${'y'.repeat(200)}\n\u0001𝄞` }],
    ['numbers and literals', { a: 1, b: -2.5e-7, c: 1e21, d: NaN, e: Infinity, f: true, g: false, h: null }],
    ['values JSON leaves out', { a: undefined, b: () => 1, c: [undefined, () => 1, 1], d: { e: undefined } }],
    [
      'nesting',
      {
        structuredContent: {
          rows: [
            [1, 2],
            [3, [4, { five: 5 }]],
          ],
          empty: {},
          none: [],
        },
      },
    ],
  ])('matches JSON.stringify for %s', (_label, value) => {
    expect(jsonByteLength(value)).toBe(exact(value));
  });

  it('counts an 8 MiB text and survives nesting JSON.stringify cannot', () => {
    const big = { content: [{ type: 'text', text: 'x'.repeat(8 * 1024 * 1024) }] };
    expect(jsonByteLength(big)).toBe(exact(big));
    let deep: unknown = 1;
    for (let i = 0; i < 50_000; i++) deep = [deep];
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(jsonByteLength(deep)).toBe(50_000 * 2 + 1);
  });

  it('counts a string over LONG_STRING by its UTF-8 length, leaving its escapes out', () => {
    const long = `${'é'.repeat(LONG_STRING)}\n"`;
    expect(jsonByteLength(long)).toBe(Buffer.byteLength(long, 'utf8') + 2);
    expect(exact(long) - jsonByteLength(long)).toBe(2);
  });
});
