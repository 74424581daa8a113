// A gateway client's token lost in a restart without a keychain (digests in memory): two real cores, one after the
// other, on one data folder, each with its own memory store as a real restart has. The second names the client's
// token as lost (also with the gateway off), refuses the old token over HTTP, and a new token clears the mark and works.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Host } from '../../../electron/core/host.js';
import type { CredentialStore } from '../../../electron/core/ports.js';
import { MemoryCredentialStore } from '../../../electron/platform/memory-credential-store.js';
import { cleanup, settingsStoreIn, tempDir, testCore } from '../../shared/support/harness.js';

let dir: string;
let hosts: Host[];

function startCore(credentials: CredentialStore = new MemoryCredentialStore()): Host {
  const host = testCore({ settingsStore: settingsStoreIn(dir), credentials });
  hosts.push(host);
  return host;
}

/** Status of an initialize POST to the gateway with `token`. */
async function initStatus(url: string, token: string): Promise<number> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });
  await res.body?.cancel();
  return res.status;
}

beforeEach(() => {
  dir = tempDir('sb-lost-token-');
  hosts = [];
});

afterEach(async () => {
  for (const host of hosts) await host.shutdown();
  cleanup(dir);
});

describe('a gateway token lost in a restart without a keychain', () => {
  it('is named on the client, refused over HTTP, and a new token clears it and works', async () => {
    const first = startCore();
    await first.start();
    const url = (await first.gateway.enable(0)).url!;
    const kept = await first.gateway.addClient('Kept', { mode: 'all', writes: 'allow' });
    expect(await initStatus(url, kept.token)).toBe(200);
    expect((await first.gateway.clients()).map((c) => c.tokenLost)).toEqual([undefined]);
    await first.gateway.disable();
    await first.shutdown();

    const second = startCore();
    await second.start();
    // Off: the list still says the token is gone and why.
    const [lost] = await second.gateway.clients();
    expect(lost).toMatchObject({ id: kept.id, name: 'Kept', tokenLost: 'not-kept' });
    const port = (await second.gateway.enable(0)).url!;
    expect(await initStatus(port, kept.token)).toBe(401);

    const issued = await second.gateway.rotateToken(kept.id);
    expect(issued.tokenLost).toBeUndefined();
    expect((await second.gateway.clients())[0]!.tokenLost).toBeUndefined();
    expect(await initStatus(port, issued.token)).toBe(200);
    expect(JSON.stringify(await second.gateway.clients())).not.toContain(issued.token);
  });

  it('names a token the store could not read as unreadable, and a lasting store that kept it as not lost', async () => {
    const lasting = new MemoryCredentialStore();
    const first = startCore(lasting);
    await first.start();
    const client = await first.gateway.addClient('Reader', { mode: 'all', writes: 'allow' });
    await first.shutdown();

    // Same store (as a keychain would be): the token survived.
    const second = startCore(lasting);
    await second.start();
    expect((await second.gateway.clients())[0]!.tokenLost).toBeUndefined();
    await second.shutdown();

    const failing: CredentialStore = {
      kind: 'keychain',
      persistent: true,
      get: (account) => (account.startsWith('gateway-client:') ? Promise.reject(new Error('keychain locked')) : lasting.get(account)),
      set: (a, v) => lasting.set(a, v),
      delete: (a) => lasting.delete(a),
    };
    const third = startCore(failing);
    await third.start();
    expect((await third.gateway.clients())[0]).toMatchObject({ id: client.id, tokenLost: 'unreadable' });
  });
});
