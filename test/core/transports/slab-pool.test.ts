// The slab free list: slabs given back serve later lines (no fresh memory to fault in), a few are kept, only whole
// slabs are taken, and idle ones are let go after a while.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_IDLE_SLABS, SLAB_BYTES, SlabPool } from '../../../electron/core/transports/slab-pool.js';

afterEach(() => vi.useRealTimers());

describe('SlabPool', () => {
  it('hands back a slab it was given, and new ones when it has none', () => {
    const pool = new SlabPool();
    const a = pool.take();
    expect(a.byteLength).toBe(SLAB_BYTES);
    pool.give([a.buffer as ArrayBuffer]);
    expect(pool.idle).toBe(1);
    expect(pool.take().buffer).toBe(a.buffer);
    expect(pool.take().buffer).not.toBe(a.buffer);
  });

  it('keeps at most a few, only whole slabs, each once', () => {
    const pool = new SlabPool();
    const slabs = Array.from({ length: MAX_IDLE_SLABS + 5 }, () => new ArrayBuffer(SLAB_BYTES));
    pool.give([new ArrayBuffer(100), slabs[0]!, slabs[0]!]);
    expect(pool.idle).toBe(1);
    pool.give(slabs);
    expect(pool.idle).toBe(MAX_IDLE_SLABS);
  });

  it('lets idle slabs go when large lines stop', () => {
    vi.useFakeTimers();
    const pool = new SlabPool();
    pool.give([new ArrayBuffer(SLAB_BYTES)]);
    vi.advanceTimersByTime(9_000);
    expect(pool.idle).toBe(1);
    vi.advanceTimersByTime(2_000);
    expect(pool.idle).toBe(0);
  });
});
