// Reading a child's output in slices: a big burst is processed in pieces across event-loop turns (the stream paused
// in between), pace() adds a wait between slices, and nothing is lost or reordered.
import { PassThrough } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { PACE_MS, PacedReader, PIECE_BYTES, SLICE_MS } from '../../../electron/core/transports/paced-reader.js';

describe('PacedReader', () => {
  it('hands a burst over in pieces, yielding between slices, in order and complete', async () => {
    let now = 0;
    const stream = new PassThrough();
    const got: Buffer[] = [];
    const reader = new PacedReader(
      stream,
      (piece) => {
        got.push(Buffer.from(piece));
        now += SLICE_MS / 2; // each piece "costs" half a slice
      },
      () => now,
    );
    const data = Buffer.alloc(PIECE_BYTES * 10, 7);
    data.writeUInt32BE(123456, PIECE_BYTES * 10 - 4);
    stream.write(data);
    await nextTurn();
    expect(got.length).toBeLessThan(10); // not all ten pieces in one turn
    expect(got.every((p) => p.length <= PIECE_BYTES)).toBe(true);
    for (let i = 0; i < 20 && Buffer.concat(got).length < data.length; i++) await nextTurn();
    expect(Buffer.concat(got).equals(data)).toBe(true);
    reader.stop();
  });

  it('waits PACE_MS between slices after pace()', async () => {
    let now = 0;
    const stream = new PassThrough();
    const got: number[] = [];
    const reader = new PacedReader(
      stream,
      (piece) => void got.push(piece.length),
      () => now,
    );
    reader.pace();
    stream.write(Buffer.alloc(10));
    await nextTurn();
    expect(got).toEqual([]);
    now += PACE_MS;
    await new Promise((r) => setTimeout(r, PACE_MS + 20));
    expect(got).toEqual([10]);
    reader.stop();
  });
});
