// The line-parse worker's entry: parses the large stdout lines of stdio servers off the main thread (an 8 MiB
// result costs tens of milliseconds to decode and parse, which would stall every other server, the bridge and the
// UI for that long). Receives {id, slabs} (the line's bytes in order, joined here) and answers {id, parsed, slabs},
// handing the slabs back so the main thread reuses them instead of touching fresh memory for the next large line.
import { parentPort } from 'node:worker_threads';
import { parseLine } from './line-parse.js';

parentPort?.on('message', (msg: { id: number; slabs: Uint8Array[] }) => {
  let parsed;
  try {
    parsed = parseLine(msg.slabs.length === 1 ? msg.slabs[0]! : Buffer.concat(msg.slabs));
  } catch (error) {
    parsed = { kind: 'not_json' as const, quote: `unparseable line (${error instanceof Error ? error.message : 'error'})` };
  }
  const slabs = [...new Set(msg.slabs.map((s) => s.buffer))].filter((b): b is ArrayBuffer => b instanceof ArrayBuffer);
  parentPort?.postMessage({ id: msg.id, parsed, slabs }, slabs);
});
