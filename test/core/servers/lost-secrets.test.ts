// A secret lost in a restart (credentials in memory, no OS keychain): two real cores, one after the other, on one
// data folder, each with its own memory store as a real restart has. The second names the secret as missing (never
// "changed"), refuses to approve the launch without it and refuses the spawn, and approves again once it is entered.
// Real Host, real session manager, a real stdio fixture that counts its spawns.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServerConfigInput } from '../../../shared/config.js';
import type { Host } from '../../../electron/core/host.js';
import { SessionManager } from '../../../electron/core/sessions/session-manager.js';
import { createTransport } from '../../../electron/core/transports/create-transport.js';
import { MemoryCredentialStore } from '../../../electron/platform/memory-credential-store.js';
import { cleanup, settingsStoreIn, tempDir, testCore } from '../../shared/support/harness.js';
import { countedServer, fixture, spawns, until } from '../sessions/helpers.js';

let dir: string;
let hosts: Host[];
const SECRET = 'weather-canary-91c2';

/** A core on the data folder with a fresh memory store: what a restart without a keychain gets. */
function startCore(): Host {
  const credentials = new MemoryCredentialStore();
  const host = testCore({
    settingsStore: settingsStoreIn(dir),
    credentials,
    createSessions: (h) => new SessionManager(h, { credentials, createTransport }),
  });
  hosts.push(host);
  return host;
}

beforeEach(() => {
  dir = tempDir('sb-lost-secret-');
  hosts = [];
});

afterEach(async () => {
  for (const host of hosts) await host.shutdown();
  cleanup(dir);
});

const log = (): string => join(dir, 'spawns.log');

function weather(value?: string): ServerConfigInput {
  const base = countedServer('weather', fixture('echo-stdio.ts'), log(), { startup: 'eager' });
  if (base.transport.type !== 'stdio') throw new Error('stdio expected');
  const secret = value === undefined ? { secret: true as const } : { secret: true as const, value };
  return { ...base, transport: { ...base.transport, env: { ...base.transport.env, WEATHER_API_KEY: secret } } };
}

describe('a secret lost in a restart without a keychain', () => {
  it('is named as missing, is not approvable, is not spawned, and is approvable again once entered', async () => {
    const first = startCore();
    await first.add(weather(SECRET));
    await first.approve('weather', (await first.get('weather')).approval!.fingerprint);
    await until(() => first.status('weather').state === 'connected', 20_000, 'connected');
    await first.shutdown();
    expect(spawns(log())).toHaveLength(1);

    const second = startCore();
    // The list says it needs approval and a connect is refused before the spawn; the approval names the lost secret.
    await until(() => second.list().find((x) => x.id === 'weather')?.needsApproval === true, 20_000, 'needs approval');
    const refused = await second.sessions.connect('weather');
    expect(refused.error?.code).toBe('approval_required');
    expect(refused.error?.message).not.toMatch(/changed/);
    // The refusal the person sees names the lost secret and the fix.
    expect(refused.error?.message).toContain('the secret WEATHER_API_KEY is no longer stored');
    expect(refused.error?.message).toContain('Enter it again');
    expect(refused.error?.evidence?.missingSecrets).toEqual(['WEATHER_API_KEY']);
    expect(second.status('weather').error?.message).toContain('WEATHER_API_KEY');
    const approval = (await second.get('weather')).approval!;
    expect(approval.required).toBe(true);
    expect(approval.lostSecrets).toEqual(['WEATHER_API_KEY']);
    expect(approval.changes).toEqual([
      {
        field: 'env',
        change: 'missing',
        name: 'WEATHER_API_KEY',
        secret: true,
        summary: 'The secret WEATHER_API_KEY is no longer stored; enter it again',
      },
    ]);
    await expect(second.approve('weather', approval.fingerprint)).rejects.toMatchObject({ code: 'secret_missing' });
    expect(spawns(log())).toHaveLength(1);

    // Entering it again: nothing is missing any more, and the launch (now with a value) can be approved and runs.
    await second.update('weather', weather(SECRET));
    const again = (await second.get('weather')).approval!;
    expect(again.lostSecrets).toEqual([]);
    expect(again.changes.some((c) => c.change === 'missing')).toBe(false);
    expect(JSON.stringify(again)).not.toContain(SECRET);
    await second.approve('weather', again.fingerprint);
    await until(() => second.status('weather').state === 'connected', 20_000, 'connected again');
    expect(spawns(log())).toHaveLength(2);
  });
});
