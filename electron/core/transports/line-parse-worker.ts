// The line-parse worker's entry: parses the large stdout lines of stdio servers off the main thread (an 8 MiB
// result costs tens of milliseconds to decode and parse, which would stall every other server, the bridge and the
// UI for that long). Receives {id, bytes} and answers {id, parsed}.
import { parentPort } from 'node:worker_threads';
import { parseLine } from './line-parse.js';

parentPort?.on('message', (msg: { id: number; bytes: Uint8Array }) => {
  let parsed;
  try {
    parsed = parseLine(msg.bytes);
  } catch (error) {
    parsed = { kind: 'not_json' as const, quote: `unparseable line (${error instanceof Error ? error.message : 'error'})` };
  }
  parentPort?.postMessage({ id: msg.id, parsed });
});
