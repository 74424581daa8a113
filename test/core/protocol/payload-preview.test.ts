// A preview copies a value with long strings and arrays cut, leaves the original untouched and survives cycles.
import { describe, expect, it } from 'vitest';
import { previewValue } from '../../../electron/core/protocol/payload-preview.js';

describe('previewValue', () => {
  it('cuts long strings and arrays at every depth and says so', () => {
    const original = { a: 'x'.repeat(50), nested: [{ b: 'y'.repeat(5) }, 'z'.repeat(20)], list: [1, 2, 3, 4, 5] };
    const { value, cut } = previewValue(original, 10, 3);
    expect(cut).toBe(true);
    expect(value).toEqual({ a: 'x'.repeat(10), nested: [{ b: 'yyyyy' }, 'z'.repeat(10)], list: [1, 2, 3] });
    expect(original.a.length).toBe(50);
    expect(original.list.length).toBe(5);
  });

  it('copies a small value whole and reports nothing cut', () => {
    const original = { a: 'short', n: 1, t: true, z: null, l: ['a'] };
    const { value, cut } = previewValue(original, 10);
    expect(cut).toBe(false);
    expect(value).toEqual(original);
    expect(value).not.toBe(original);
  });

  it('does not loop on a cycle', () => {
    const a: Record<string, unknown> = { s: 'x' };
    a.self = a;
    expect(previewValue(a, 10).cut).toBe(false);
  });
});
