// A large import (issue 17 item 6): 2,000 entries land in one settings write and one list event, and other calls are
// served while it runs (it yields to the event loop). Its speed is measured in bench/import.ts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventMap } from '../../../shared/contract.js';

import type { SettingsStore } from '../../../electron/core/ports.js';
import { MemoryCredentialStore } from '../../../electron/platform/memory-credential-store.js';
import { cleanup, confSettingsStore, InertSessions, tempDir, testCore } from '../../shared/support/harness.js';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => cleanup(dir));

/** Claude Desktop config text with `n` stdio entries (every tenth with a remote URL instead). */
export function manyEntries(n: number): string {
  const servers: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) {
    servers[`server-${i}`] =
      i % 10 === 0
        ? { url: `https://mcp${i}.example.com/mcp`, headers: { 'X-Team': 'a' } }
        : { command: 'npx', args: ['-y', `@example/server-${i}`, '--flag'], env: { LEVEL: 'debug', INDEX: String(i) } };
  }
  return JSON.stringify({ mcpServers: servers });
}

describe('importing 2,000 entries', () => {
  it('writes the settings once, announces the list once, and lets other calls through meanwhile', async () => {
    const real = confSettingsStore(dir);
    let saves = 0;
    const store: SettingsStore = { dir: real.dir, load: () => real.load(), save: (s) => (saves++, real.save(s)) };
    const host = testCore({
      settingsStore: store,
      credentials: new MemoryCredentialStore(),
      createSessions: () => new InertSessions(),
    });
    const changed: EventMap['servers.changed'][] = [];
    host.events.subscribe((event, payload) => {
      if (event === 'servers.changed') changed.push(payload as EventMap['servers.changed']);
    });
    await host.start();
    changed.length = 0;

    let done = false;
    const importing = host.import({ text: manyEntries(2000) }).then((r) => ((done = true), r));
    // A macrotask (as a bridge call is) runs while the import is still going.
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    const result = await importing;
    expect(result.skipped).toEqual([]);
    expect(result.added).toHaveLength(2000);
    expect(saves).toBe(1);
    expect(changed).toHaveLength(1);
    expect(changed[0]!.servers).toHaveLength(2000);
    expect(host.list()).toHaveLength(2000);
    await host.shutdown();
  });
});
