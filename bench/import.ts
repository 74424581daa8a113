// Issue 17 item 6 benchmark: importing Claude Desktop config text with 2,000 entries (one in ten remote) into a fresh
// host with the real settings store, against 200 entries in the same run (linear growth means ~10×), plus the
// longest wait of a bridge-like macrotask (a timer ticking every ms) during the 2,000-entry import.
// Run: npm run bench -- import   (prints figures; not part of npm test)
import { InertSessions, testCore } from '../test/shared/support/harness.js';
import { MemoryCredentialStore } from '../electron/platform/memory-credential-store.js';
import { createSettingsStore } from '../electron/platform/settings-store.js';
import { ms, tempDir } from './support.js';

const TARGET_MS = 2000;

function entries(n: number): string {
  const servers: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) {
    servers[`server-${i}`] =
      i % 10 === 0
        ? { url: `https://mcp${i}.example.com/mcp`, headers: { 'X-Team': 'a' } }
        : { command: 'npx', args: ['-y', `@example/server-${i}`, '--flag'], env: { LEVEL: 'debug', INDEX: String(i) } };
  }
  return JSON.stringify({ mcpServers: servers });
}

async function importOnce(n: number): Promise<{ total: number; longestStall: number }> {
  const host = testCore({
    settingsStore: createSettingsStore(tempDir()),
    credentials: new MemoryCredentialStore(),
    createSessions: () => new InertSessions(),
  });
  await host.start();
  const text = entries(n);
  let last = performance.now();
  let longestStall = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longestStall = Math.max(longestStall, now - last);
    last = now;
  }, 1);
  const t0 = performance.now();
  const result = await host.import({ text });
  const total = performance.now() - t0;
  clearInterval(ticker);
  if (result.added.length !== n) throw new Error(`imported ${result.added.length} of ${n}: ${JSON.stringify(result.skipped.slice(0, 3))}`);
  await host.shutdown();
  return { total, longestStall };
}

await importOnce(50); // warm-up (module loading, JIT)
const small = await importOnce(200);
const large = await importOnce(2000);
console.log(`import of   200 entries: ${ms(small.total).padStart(9)}  longest event-loop stall ${ms(small.longestStall)}`);
console.log(`import of 2,000 entries: ${ms(large.total).padStart(9)}  longest event-loop stall ${ms(large.longestStall)}`);
console.log(
  `\n2,000 entries in ${ms(large.total)} (target ≤ ${TARGET_MS} ms: ${large.total <= TARGET_MS ? 'met' : 'NOT met'}); ` +
    `2,000 / 200 = ${(large.total / small.total).toFixed(1)}× (linear: ~10×)`,
);
