// Depth is measured and bounded without recursion: a value nested a million levels deep is a loop, not a crash.
import { describe, expect, it } from 'vitest';
import { boundDepth, jsonDepth } from '../../../electron/core/ingress/depth.js';
import { depthStage } from '../../../electron/core/ingress/depth-stage.js';
import { WIRE_MAX_DEPTH } from '../../../electron/core/ingress/limits.js';
import { unsendableReason } from '../../../electron/core/sendable.js';

function deep(n: number): unknown {
  return JSON.parse('{"a":'.repeat(n) + '1' + '}'.repeat(n)) as unknown;
}

describe('jsonDepth', () => {
  it('counts containers, not scalars', () => {
    expect(jsonDepth(1)).toBe(0);
    expect(jsonDepth(null)).toBe(0);
    expect(jsonDepth({})).toBe(1);
    expect(jsonDepth([1, [2, [3]]])).toBe(3);
    expect(jsonDepth({ a: { b: [] }, c: 1 })).toBe(3);
  });

  it('walks 200,000 levels without touching the call stack, and stops early when asked', () => {
    const value = deep(200_000);
    expect(() => JSON.stringify(value)).toThrow(RangeError);
    expect(jsonDepth(value)).toBe(200_000);
    expect(jsonDepth(value, 64)).toBe(65);
  });
});

describe('boundDepth', () => {
  it('returns the same value when it is within the limit', () => {
    const value = { a: [1, { b: 2 }] };
    const bounded = boundDepth(value, 3, 'X');
    expect(bounded.cut).toBe(false);
    expect(bounded.value).toBe(value);
  });

  it('replaces what is deeper than the limit with the marker and leaves the input unchanged', () => {
    const value = { keep: 'x', a: { b: { c: { d: 1 } } }, list: [[[[1]]]] };
    const bounded = boundDepth(value, 2, 'CUT');
    expect(bounded.cut).toBe(true);
    expect(bounded.value).toEqual({ keep: 'x', a: { b: 'CUT' }, list: ['CUT'] });
    expect(value.a.b.c.d).toBe(1);
  });

  it('cuts a 200,000-level value to a serialisable one', () => {
    const bounded = boundDepth(deep(200_000), 64, 'CUT');
    expect(jsonDepth(bounded.value)).toBe(64);
    expect(JSON.stringify(bounded.value)).toContain('"CUT"');
  });
});

describe('the ingress depth stage', () => {
  it('passes ordinary messages through untouched and cuts deep ones at WIRE_MAX_DEPTH, logging at most once per interval', () => {
    const lines: string[] = [];
    let now = 0;
    const stage = depthStage(
      (_level, text) => lines.push(text),
      WIRE_MAX_DEPTH,
      () => now,
    );
    const later = (): void => undefined;
    const plain = { jsonrpc: '2.0' as const, id: 1, result: { content: [] } };
    expect(stage(plain, later)).toBe(plain);
    const hostile = { jsonrpc: '2.0' as const, id: 2, result: { structuredContent: deep(5000) } };
    const out = stage(hostile, later)!;
    expect(jsonDepth(out)).toBeLessThanOrEqual(WIRE_MAX_DEPTH);
    expect(() => structuredClone(out)).not.toThrow();
    stage(hostile, later);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/response to request 2.*nested deeper than 512 levels/);
    now = 10_000;
    stage(hostile, later);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/2 such messages/);
  });
});

describe('unsendableReason', () => {
  it('accepts plain JSON data and refuses what a bridge cannot carry', () => {
    expect(unsendableReason({ a: [1, 'x', null, { b: true }] })).toBeUndefined();
    expect(unsendableReason(undefined)).toBeUndefined();
    expect(unsendableReason(deep(3000))).toMatch(/nested deeper than/);
    expect(unsendableReason({ n: 10n })).toMatch(/bigint/);
    expect(unsendableReason({ f: () => 1 })).toMatch(/function/);
  });
});

describe('guardIncoming', () => {
  it('runs the stages once per message, also when another wrapper reads the handler and installs its own', async () => {
    const { guardIncoming } = await import('../../../electron/core/ingress/incoming.js');
    const seen: unknown[] = [];
    let staged = 0;
    const transport = {
      onmessage: undefined as ((m: unknown) => void) | undefined,
      async start() {},
      async send() {},
      async close() {},
    };
    guardIncoming(transport as never, [(m) => (staged++, m)]);
    transport.onmessage = (m) => seen.push(m);
    // A tap (as the raw request path does): read the handler, install one that calls it.
    const inner = transport.onmessage;
    const tapped: unknown[] = [];
    transport.onmessage = (m) => (tapped.push(m), inner?.(m));
    const message = { jsonrpc: '2.0', method: 'notifications/message', params: {} };
    transport.onmessage?.(message);
    expect(tapped).toEqual([message]);
    expect(seen).toEqual([message]);
    expect(staged).toBe(1);
  });
});
