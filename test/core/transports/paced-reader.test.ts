// Reading a child's output in slices: a big burst is processed in pieces across event-loop turns (the stream paused
// in between), pace() adds a wait between slices, and nothing is lost or reordered.
import { PassThrough } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { PACE_MS, PacedReader, PIECE_BYTES, SLICE_MS, TurnBudget } from '../../../electron/core/transports/paced-reader.js';

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

  it('shares one slice per turn between readers, and each still gets a piece every turn', async () => {
    let now = 0;
    const budget = new TurnBudget();
    const streams = [new PassThrough(), new PassThrough(), new PassThrough()];
    const got = streams.map(() => 0);
    const readers = streams.map(
      (stream, i) =>
        new PacedReader(
          stream,
          (piece) => {
            got[i] = got[i]! + piece.length;
            now += SLICE_MS / 4; // each piece "costs" a quarter of a slice
          },
          () => now,
          budget,
        ),
    );
    for (const stream of streams) stream.write(Buffer.alloc(PIECE_BYTES * 40, 1));
    // Writing fired each stream's data event at once; from here on, look at what each turn adds, per reader.
    const steps: number[][] = [];
    const initial = got.map((g) => g / PIECE_BYTES);
    let before = [...got];
    for (let turn = 0; turn < 400 && got.some((g) => g < PIECE_BYTES * 40); turn++) {
      await nextTurn();
      steps.push(got.map((g, i) => (g - before[i]!) / PIECE_BYTES));
      before = [...got];
    }
    expect(got).toEqual(streams.map(() => PIECE_BYTES * 40));
    // One slice is four pieces: three readers that each take at least one make at most 4 + 2 in a turn, never 12.
    expect(Math.max(...steps.map((s) => s.reduce((a, b) => a + b, 0)))).toBeLessThanOrEqual(6);
    // And none waits while another reads: every reader with data left moved in every turn.
    const left = (i: number, upTo: number): boolean => steps.slice(0, upTo).reduce((a, s) => a + s[i]!, initial[i]!) < 40;
    for (let t = 0; t < steps.length; t++) {
      for (let i = 0; i < readers.length; i++) if (left(i, t)) expect(steps[t]![i], `reader ${i} in turn ${t}`).toBeGreaterThan(0);
    }
    for (const r of readers) r.stop();
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
