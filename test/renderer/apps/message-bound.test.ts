// The bound on an app's messages: within size and depth passes, one byte or level over is refused with a reason,
// and a refused request's answer is a JSON-RPC error carrying the typed code.
import { describe, expect, it } from 'vitest';
import { APP_MESSAGE_MAX_BYTES, APP_MESSAGE_MAX_DEPTH } from '../../../shared/message-limits';
import { APP_MESSAGE_BOUNDS, checkMessageBounds, refusalFor } from '../../../renderer/src/apps/message-bound';

const nested = (depth: number): unknown => {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = i % 2 ? { v } : [v];
  return v;
};

describe('checkMessageBounds', () => {
  it('uses the shared limits', () => {
    expect(APP_MESSAGE_BOUNDS).toEqual({ maxBytes: APP_MESSAGE_MAX_BYTES, maxDepth: APP_MESSAGE_MAX_DEPTH });
  });

  it('passes an ordinary request', () => {
    expect(
      checkMessageBounds({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: { a: [1, true, null] } } }),
    ).toEqual({
      ok: true,
    });
  });

  it('counts close to the serialised length', () => {
    const msg = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: { text: 'y'.repeat(1000), n: [1, 2, 3] } } };
    const exact = JSON.stringify(msg).length;
    expect(checkMessageBounds(msg, { maxBytes: exact + 8, maxDepth: 64 }).ok).toBe(true);
    expect(checkMessageBounds(msg, { maxBytes: exact - 8, maxDepth: 64 }).ok).toBe(false);
  });

  it('refuses a 20 MiB tools/call with a reason naming the limit', () => {
    const r = checkMessageBounds({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'x', arguments: { blob: 'a'.repeat(20 * 1024 * 1024) } },
    });
    expect(r).toEqual({ ok: false, reason: "The app's message is larger than 4.0 MiB, the most an app may send" });
  });

  it('refuses many small parts that add up, and stops early', () => {
    const parts = Array.from({ length: 300_000 }, () => 'abcdefghijklmnop');
    expect(checkMessageBounds({ params: parts }).ok).toBe(false);
  });

  it('passes 64 levels and refuses 65', () => {
    expect(checkMessageBounds(nested(APP_MESSAGE_MAX_DEPTH)).ok).toBe(true);
    expect(checkMessageBounds(nested(APP_MESSAGE_MAX_DEPTH + 1))).toEqual({
      ok: false,
      reason: "The app's message is nested more than 64 levels deep",
    });
  });

  it('walks a very deep message without recursing', () => {
    expect(checkMessageBounds(nested(100_000)).ok).toBe(false);
  });

  it('answers a refused request with a JSON-RPC error carrying limit_exceeded', () => {
    expect(refusalFor(3, 'too big')).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32000, message: 'too big', data: { code: 'limit_exceeded', message: 'too big' } },
    });
  });
});
