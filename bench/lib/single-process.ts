// The single process of before the split, for bench/idle-rss: one core in this process with N stdio servers
// connected. Usage: single-process.ts DATA_DIR SERVER_SCRIPT N SETTLE_MS. Prints "idle" once connected and settled,
// then stays until its stdin closes, and shuts the core down.
import { setTimeout as sleep } from 'node:timers/promises';
import { addStdio, benchHost } from '../support.js';

const [dir, script, count, settle] = process.argv.slice(2);
if (!dir || !script) throw new Error('usage: single-process.ts DATA_DIR SERVER_SCRIPT N SETTLE_MS');
const host = benchHost(dir);
const n = Number(count ?? 20);
for (let i = 0; i < n; i++) await addStdio(host, `s${i}`, script);
await Promise.all(Array.from({ length: n }, (_, i) => host.sessions.connect(`s${i}`)));
await sleep(Number(settle ?? 5000));
process.stdout.write('idle\n');
process.stdin.resume();
process.stdin.once('end', () => {
  void host.shutdown().then(() => process.exit(0));
});
