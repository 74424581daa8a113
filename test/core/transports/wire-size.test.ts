// The size a transport noted for a message reaches the protocol log only for that message: a small one through the
// one-slot note (until another is noted), a large one through the weak table, never a size that belongs to another.
import { describe, expect, it } from 'vitest';
import { NOTED_WIRE_BYTES, noteWireBytes, wireBytes } from '../../../electron/core/transports/wire-size.js';

describe('wire sizes', () => {
  it('gives a small message its noted size until the next one is noted, and a large one for as long as it lives', () => {
    const small = { jsonrpc: '2.0', id: 1, result: {} };
    const other = { jsonrpc: '2.0', id: 2, result: {} };
    noteWireBytes(small, 37);
    expect(wireBytes(small)).toBe(37);
    expect(wireBytes(other)).toBeUndefined();
    noteWireBytes(other, 38);
    expect(wireBytes(other)).toBe(38);
    expect(wireBytes(small)).toBeUndefined();
    const large = { jsonrpc: '2.0', id: 3, result: {} };
    noteWireBytes(small, 37);
    noteWireBytes(large, NOTED_WIRE_BYTES + 1);
    expect(wireBytes(large)).toBe(NOTED_WIRE_BYTES + 1);
    // A large message never takes the slot (it would be held after everything else let go of it): the small one keeps it.
    expect(wireBytes(small)).toBe(37);
    noteWireBytes(other, 38);
    expect(wireBytes(large)).toBe(NOTED_WIRE_BYTES + 1);
  });
});
