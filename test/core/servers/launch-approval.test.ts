// Launch approval covers every env value (issue 17 item 2): changing NODE_OPTIONS, LD_PRELOAD or a secret on an
// approved server — through servers.update, by editing the settings file or in the credential store — needs
// approval again, an eager server does not reconnect by itself, and the panel lists exactly what changed without
// ever showing a secret. Real Host, real session manager, a real stdio fixture that counts its spawns.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServerConfigInput } from '../../../shared/config.js';
import type { Host } from '../../../electron/core/host.js';
import { envSecretAccount } from '../../../electron/core/servers/secrets.js';
import { SessionManager } from '../../../electron/core/sessions/session-manager.js';
import { createTransport } from '../../../electron/core/transports/create-transport.js';
import { MemoryCredentialStore } from '../../../electron/platform/memory-credential-store.js';
import { cleanup, confSettingsStore, tempDir, testCore } from '../../shared/support/harness.js';
import { countedServer, fixture, spawns, until } from '../sessions/helpers.js';

let dir: string;
let credentials: MemoryCredentialStore;
let hosts: Host[];

function newHost(): Host {
  let sessions: SessionManager | undefined;
  const host = testCore({
    settingsStore: confSettingsStore(dir),
    credentials,
    createSessions: (h) => (sessions = new SessionManager(h, { credentials, createTransport })),
  });
  if (!sessions) throw new Error('no sessions');
  hosts.push(host);
  return host;
}

beforeEach(() => {
  dir = tempDir('sb-approval-');
  credentials = new MemoryCredentialStore();
  hosts = [];
});

afterEach(async () => {
  for (const host of hosts) await host.shutdown();
  cleanup(dir);
});

const log = (): string => join(dir, 'spawns.log');
const SECRET = 'hunter2-canary-7f3a';

function server(env: Record<string, string | { secret: true; value?: string }>, extra: Partial<ServerConfigInput> = {}): ServerConfigInput {
  const base = countedServer('srv', fixture('echo-stdio.ts'), log(), { startup: 'eager', ...extra });
  if (base.transport.type !== 'stdio') throw new Error('stdio expected');
  // No cwd of its own (this manager has no data folder, so the fixture runs from the checkout), so a cwd set later is "added".
  const { cwd: _checkout, ...transport } = base.transport;
  return { ...base, transport: { ...transport, env: { ...base.transport.env, ...env } } };
}

async function approveAndConnect(host: Host): Promise<void> {
  await host.approve('srv', (await host.get('srv')).approval!.fingerprint);
  await until(() => host.status('srv').state === 'connected', 20_000, 'connected');
}

describe('launch approval covers env values', () => {
  it('changing a plain env value through servers.update needs approval again; the eager server does not reconnect', async () => {
    const host = newHost();
    await host.add(server({ NODE_OPTIONS: '--no-warnings' }));
    await approveAndConnect(host);
    expect(spawns(log())).toHaveLength(1);

    await host.update('srv', server({ NODE_OPTIONS: '--no-deprecation' }));
    await until(() => host.status('srv').error?.code === 'approval_required', 15_000, 'approval_required');
    expect(host.status('srv').state).toBe('disconnected');
    const detail = await host.get('srv');
    expect(detail.needsApproval).toBe(true);
    expect(detail.approval).toMatchObject({ required: true, lastApproval: 'approved' });
    expect(detail.approval!.changes).toEqual([
      {
        field: 'env',
        change: 'changed',
        name: 'NODE_OPTIONS',
        secret: false,
        after: '--no-deprecation',
        summary: 'The value of NODE_OPTIONS changed',
      },
    ]);
    expect(detail.approval!.env.find((e) => e.name === 'NODE_OPTIONS')).toEqual({
      name: 'NODE_OPTIONS',
      secret: false,
      value: '--no-deprecation',
    });
    // An explicit connect is refused too, and nothing was spawned.
    expect(await host.sessions.connect('srv')).toMatchObject({ state: 'disconnected', error: { code: 'approval_required' } });
    expect(spawns(log())).toHaveLength(1);

    await approveAndConnect(host);
    expect(spawns(log())).toHaveLength(2);
  });

  it('a changed secret value is "value changed" on the panel and never shown anywhere', async () => {
    const host = newHost();
    await host.add(server({ API_KEY: { secret: true, value: 'first-secret' } }));
    await approveAndConnect(host);

    await host.update('srv', server({ API_KEY: { secret: true, value: SECRET } }));
    await until(() => host.status('srv').error?.code === 'approval_required', 15_000, 'approval_required');
    const detail = await host.get('srv');
    expect(detail.approval!.changes).toEqual([
      { field: 'env', change: 'changed', name: 'API_KEY', secret: true, summary: 'The value of API_KEY changed' },
    ]);
    expect(detail.approval!.env).toContainEqual({ name: 'API_KEY', secret: true, isSet: true });
    expect(JSON.stringify(detail)).not.toContain(SECRET);
    expect(JSON.stringify(host.list())).not.toContain(SECRET);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).not.toContain(SECRET);
    expect(spawns(log())).toHaveLength(1);

    // Keeping the stored secret (no new value) and changing nothing else keeps the approval.
    await approveAndConnect(host);
    await host.update('srv', server({ API_KEY: { secret: true } }));
    expect(host.isLaunchApproved(host.config('srv'))).toBe(true);
  });

  it('a secret changed in the credential store behind Switchboard is caught right before the spawn', async () => {
    const host = newHost();
    await host.add(server({ API_KEY: { secret: true, value: 'first-secret' } }, { startup: 'manual' }));
    await host.approve('srv', (await host.get('srv')).approval!.fingerprint);
    await credentials.set(envSecretAccount('srv', 'API_KEY'), SECRET);
    expect(await host.sessions.connect('srv')).toMatchObject({ state: 'disconnected', error: { code: 'approval_required' } });
    expect(host.status('srv').error?.message).toMatch(/The value of API_KEY changed/);
    expect(host.status('srv').error?.message).not.toContain(SECRET);
    expect(spawns(log())).toHaveLength(0);
    expect((await host.get('srv')).approval!.changes.map((c) => c.name)).toEqual(['API_KEY']);
  });

  it('an env value edited in the settings file is not started at the next launch; the panel shows the change', async () => {
    const first = newHost();
    await first.add(server({ LD_PRELOAD: '' }));
    await approveAndConnect(first);
    await first.shutdown();

    const file = join(dir, 'config.json');
    const settings = JSON.parse(readFileSync(file, 'utf8')) as { servers: { transport: { env: Record<string, string> } }[] };
    settings.servers[0]!.transport.env['LD_PRELOAD'] = '/tmp/evil.so';
    writeFileSync(file, JSON.stringify(settings));

    const second = newHost();
    await second.start();
    expect(second.status('srv')).toMatchObject({ state: 'disconnected', error: { code: 'approval_required' } });
    expect((await second.get('srv')).approval!.changes).toMatchObject([{ field: 'env', change: 'changed', name: 'LD_PRELOAD' }]);
    expect(spawns(log())).toHaveLength(1);
  });

  it('lists exactly what changed: command, each argument, cwd, env names added and removed, inheritEnv', async () => {
    const host = newHost();
    await host.add(server({ KEEP: 'k', GONE: 'g' }, { startup: 'manual' }));
    await host.approve('srv', (await host.get('srv')).approval!.fingerprint);
    const before = host.config('srv');
    if (before.transport.type !== 'stdio') throw new Error('stdio expected');
    const args = before.transport.args;
    await host.update('srv', {
      ...server({ KEEP: 'k', NEW: 'n' }, { startup: 'manual' }),
      transport: {
        type: 'stdio',
        command: 'node',
        args: ['--inspect=0.0.0.0:9229', ...args],
        cwd: dir,
        env: { ...Object.fromEntries(Object.entries(before.transport.env).filter(([k]) => k !== 'GONE')), NEW: 'n' } as Record<
          string,
          string
        >,
        inheritEnv: true,
      },
    });
    const approval = (await host.get('srv')).approval!;
    expect(approval.required).toBe(true);
    expect(approval.changes.map((c) => [c.field, c.change, c.name ?? c.index ?? null])).toEqual([
      ['command', 'changed', null],
      ['arg', 'added', 0],
      ['cwd', 'added', null],
      ['env', 'removed', 'GONE'],
      ['env', 'added', 'NEW'],
      ['inheritEnv', 'changed', null],
    ]);
    expect(approval.changes[1]).toMatchObject({ after: '--inspect=0.0.0.0:9229' });
  });

  it('an approval stored under the old scheme (env names only) is asked for once more, with a notice', async () => {
    const first = newHost();
    await first.add(server({ A: '1' }));
    await first.shutdown();
    const file = join(dir, 'config.json');
    const settings = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...settings, approvals: { srv: '0123456789abcdef0123456789abcdef' } }));

    const host = newHost();
    expect(host.info().notices.find((n) => n.id === 'approvals-env-values')?.message).toMatch(/ask once more.*srv/);
    await host.start();
    expect(host.status('srv').error?.code).toBe('approval_required');
    expect((await host.get('srv')).approval).toMatchObject({ required: true, lastApproval: 'legacy', changes: [] });
    expect(spawns(log())).toHaveLength(0);
    await approveAndConnect(host);
    expect(JSON.parse(readFileSync(file, 'utf8')).approvals.srv).toMatchObject({ fingerprint: expect.stringMatching(/^v2:/) });
  });
});
