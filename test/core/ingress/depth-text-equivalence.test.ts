// The fast depth cutter must give the same bytes as the byte-at-a-time reference for any input and any chunking.
import { describe, expect, it } from 'vitest';
import { JsonDepthCutter } from '../../../electron/core/ingress/depth-text.js';
import { JsonDepthCutter as Reference } from './depth-text-reference.js';

/** A small seeded generator, so a failure names an input that can be replayed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const ATOMS = ['"', '\\', '\\\\', '\\"', '\\\\"', '{', '}', '[', ']', ',', ':', 'a', ' ', 'é', '€', '😀', '"x"', '\\u0022', '0', 'null'];

function randomText(r: () => number): Buffer {
  const parts: string[] = [];
  const n = Math.floor(r() * 200);
  for (let i = 0; i < n; i++) parts.push(ATOMS[Math.floor(r() * ATOMS.length)]!);
  return Buffer.from(parts.join(''));
}

/** Either cutter, by shape (their private fields make the classes distinct types). */
type Cutter = new (limit: number, marker: string) => { push(chunk: Uint8Array): Uint8Array[]; readonly cut: boolean };

function runAll(make: Cutter, bytes: Buffer, cuts: number[], limit: number): { out: Buffer; cut: boolean } {
  const c = new make(limit, '[cut]');
  const out: Uint8Array[] = [];
  let from = 0;
  for (const at of [...cuts, bytes.length]) {
    out.push(...c.push(bytes.subarray(from, at)));
    from = at;
  }
  return { out: Buffer.concat(out), cut: c.cut };
}

function same(bytes: Buffer, cuts: number[], limit: number): void {
  const fast = runAll(JsonDepthCutter, bytes, cuts, limit);
  const ref = runAll(Reference, bytes, cuts, limit);
  expect({ hex: fast.out.toString('hex'), cut: fast.cut }, `${bytes.toString('hex')} cut at ${cuts.join(',')} limit ${limit}`).toEqual({
    hex: ref.out.toString('hex'),
    cut: ref.cut,
  });
}

describe('JsonDepthCutter matches the reference byte for byte', () => {
  it('on random texts of quotes, escapes, brackets and unicode, in random chunks', () => {
    const r = rng(28);
    for (let k = 0; k < 3000; k++) {
      const bytes = randomText(r);
      const cuts = Array.from({ length: Math.floor(r() * 5) }, () => Math.floor(r() * (bytes.length + 1))).sort((a, b) => a - b);
      same(bytes, cuts, Math.floor(r() * 4));
    }
  });

  it('on hostile texts: backslash runs at chunk edges, deep nesting, truncation, multi-byte characters split', () => {
    const texts = [
      '{"a":"' + '\\'.repeat(7) + '"' + '\\'.repeat(8) + '","b":[[[[1]]]]}',
      '['.repeat(5000) + ']'.repeat(5000),
      '{"s":"' + '[{'.repeat(100) + '","d":' + '['.repeat(50) + '"\\"]"' + ']'.repeat(50) + '}',
      '{"a":"truncated \\',
      '["€😀é", {"k": "\\\\\\"[[["}, [[["x"]]]]',
      '"' + 'x'.repeat(70000) + '\\"' + '[[[' + '"' + '[[[[[[[[[]]]]]]]]]',
    ];
    for (const t of texts) {
      const bytes = Buffer.from(t);
      for (const limit of [0, 1, 2, 3, 64]) {
        same(bytes, [], limit);
        for (let at = 0; at <= Math.min(bytes.length, 80); at++) same(bytes, [at], limit);
        same(bytes, [Math.floor(bytes.length / 3), Math.floor(bytes.length / 2), bytes.length - 1], limit);
      }
    }
  });

  it('returns the chunk itself when nothing is cut (no copy)', () => {
    const chunk = Buffer.from('{"a":"' + 'x'.repeat(1000) + '"}');
    const parts = new JsonDepthCutter(4, '[cut]').push(chunk);
    expect(parts).toHaveLength(1);
    expect(parts[0]).toBe(chunk);
  });
});
