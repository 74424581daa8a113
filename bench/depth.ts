// The JSON depth cutter over 1 MiB and 8 MiB results (one text line, as a stdio transport sees it): the current
// cutter against the byte-at-a-time reference kept in the tests, in interleaved rounds. The whole round trip
// against a raw pipe is in bench/connect.ts. Run: npm run bench -- depth   (prints figures; not part of npm test)
import { JsonDepthCutter } from '../electron/core/ingress/depth-text.js';
import { JsonDepthCutter as Reference } from '../test/core/ingress/depth-text-reference.js';
import { interleave, median } from './support.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 11);

function result(bytes: number): Buffer {
  const text = 'x'.repeat(bytes - 20) + '\\"é';
  return Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text }] } }));
}

/** Either cutter, by shape (their private fields make the classes distinct types). */
type Cutter = new (limit: number, marker: string) => { push(chunk: Uint8Array): Uint8Array[]; readonly cut: boolean };

function time(make: Cutter, bytes: Buffer): number {
  const times: number[] = [];
  for (let k = 0; k < 5; k++) {
    const c = new make(64, '[cut]');
    const t0 = performance.now();
    // 64 KiB chunks, as a pipe delivers them.
    for (let at = 0; at < bytes.length; at += 65536) c.push(bytes.subarray(at, at + 65536));
    times.push(performance.now() - t0);
  }
  return median(times);
}

for (const size of [1024 * 1024, 8 * 1024 * 1024]) {
  const bytes = result(size);
  await interleave(
    `depth cutter, ${size / 1024 / 1024} MiB result`,
    ROUNDS,
    { name: 'byte-at-a-time reference', run: () => Promise.resolve(time(Reference, bytes)) },
    { name: 'native string skip', run: () => Promise.resolve(time(JsonDepthCutter, bytes)) },
  );
}
