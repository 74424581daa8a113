// A call that arrives while the core shuts down, or after, never starts a server: tool calls, connects and restarts
// fail with `shutting_down` from the moment shutdown begins (before any step has run), through the real composition
// (bootstrap) with a real stdio fixture whose processes are looked for in the process list, and through the session
// manager alone.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bootstrap, type Bootstrapped } from '../../../electron/bootstrap.js';
import { EventBus } from '../../../electron/core/event-bus.js';
import { SessionManager } from '../../../electron/core/sessions/session-manager.js';
import { createTransport } from '../../../electron/core/transports/create-transport.js';
import { MemoryCredentialStore } from '../../../electron/platform/memory-credential-store.js';
import { createSettingsStore } from '../../../electron/platform/settings-store.js';
import { ServerConfigSchema, type ServerConfigInput } from '../../../shared/config.js';
import { cleanup, tempDir } from '../../shared/support/harness.js';
import { addApproved, countedServer, fixture, makeSessionHost, spawns, until } from './helpers.js';

const dirs: string[] = [];
const hosts: { shutdown(): Promise<unknown> }[] = [];

afterEach(async () => {
  for (const h of hosts.splice(0)) await h.shutdown();
  dirs.splice(0).forEach(cleanup);
});

function dir(): string {
  const d = tempDir('sb-shutdown-calls-');
  dirs.push(d);
  return d;
}

/** Live (not zombie) processes whose command line holds `marker`. */
function processesWith(marker: string): string[] {
  const out = execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.includes(marker) && !l.includes(' ps -eo'))
    .filter((l) => !/^\d+\s+Z/.test(l));
}

/** The echo fixture, counted, with a marker on its command line so its processes can be found. */
function markedEcho(d: string, id: string): { input: ServerConfigInput; log: string; marker: string } {
  const log = join(d, `${id}.spawns`);
  const marker = `sb-marker-${randomUUID()}`;
  const input = countedServer(id, fixture('echo-stdio.ts'), log, { lifecycle: 'initialize' });
  if (input.transport.type !== 'stdio') throw new Error('stdio expected');
  return { input: { ...input, transport: { ...input.transport, args: [...(input.transport.args ?? []), marker] } }, log, marker };
}

describe('calls during shutdown', () => {
  it('a tool call, a connect and a restart arriving while shutdown runs fail with shutting_down and spawn nothing', async () => {
    const d = dir();
    const b: Bootstrapped = await bootstrap({
      mode: 'headless',
      version: '0.0.0-test',
      settingsStore: createSettingsStore(d),
      credentials: 'memory',
    });
    hosts.push(b.host);
    const { host } = b;
    const { input, log, marker } = markedEcho(d, 'fx');
    await addApproved(host, input);
    // Connected once, so the catalog knows the tool; then disconnected: a call would have to start the server again.
    expect(await host.sessions.connect('fx')).toMatchObject({ state: 'connected' });
    await until(
      () => {
        try {
          return host.catalog.tool('mcp__fx__echo') !== undefined;
        } catch {
          return false;
        }
      },
      20_000,
      'the echo tool in the catalog',
    );
    expect(processesWith(marker)).toHaveLength(1);
    await host.sessions.disconnect('fx');
    await until(() => processesWith(marker).length === 0, 15_000, 'the first server process to end');
    expect(spawns(log)).toHaveLength(1);

    // Added last, this stop step runs first: nothing else of shutdown has happened when the calls arrive.
    let during: { call: unknown; connect: unknown; restart: unknown; processes: string[] } | undefined;
    host.onShutdown({
      name: 'calls arrive',
      stage: 'stop',
      timeoutMs: 30_000,
      run: async () => {
        const [call, connect, restart] = await Promise.all([
          host.calls.call({ name: 'mcp__fx__echo', arguments: { text: 'too late' } }),
          host.sessions.connect('fx'),
          host.sessions.restart('fx'),
        ]);
        during = { call, connect, restart, processes: processesWith(marker) };
      },
    });
    const report = await host.shutdown({ timeoutMs: 30_000 });
    expect(report.steps.find((s) => s.name === 'calls arrive')?.outcome).toBe('ok');
    expect(during?.call).toMatchObject({ status: 'error', error: { code: 'shutting_down' } });
    expect(during?.connect).toMatchObject({ state: 'disconnected', error: { code: 'shutting_down' } });
    expect(during?.restart).toMatchObject({ state: 'disconnected', error: { code: 'shutting_down' } });
    expect(during?.processes).toEqual([]);

    // After shutdown too.
    await expect(host.sessions.client('fx')).rejects.toMatchObject({ code: 'shutting_down' });
    expect(await host.calls.call({ name: 'mcp__fx__echo', arguments: { text: 'later still' } })).toMatchObject({
      status: 'error',
    });
    expect(processesWith(marker)).toEqual([]);
    expect(spawns(log)).toHaveLength(1);
  });
});

describe('the session manager alone', () => {
  it('refuses from the moment shutdown is called, including a server registered after it', async () => {
    const d = dir();
    const h = makeSessionHost(d);
    hosts.push(h.host);
    const { input, log, marker } = markedEcho(d, 'fx');
    await addApproved(h.host, input);
    expect(await h.sessions.connect('fx')).toMatchObject({ state: 'connected' });

    const closing = h.sessions.shutdown();
    // Same turn as the shutdown call: the live session is being released, and nothing may start it again.
    const refused = h.sessions.client('fx');
    const connect = h.sessions.connect('fx');
    await closing;
    await expect(refused).rejects.toMatchObject({ code: 'shutting_down', serverId: 'fx' });
    expect(await connect).toMatchObject({ error: { code: 'shutting_down' } });

    const late = markedEcho(d, 'late');
    await addApproved(h.host, { ...late.input, startup: 'eager' });
    await expect(h.sessions.client('late')).rejects.toMatchObject({ code: 'shutting_down' });
    expect(await h.sessions.startAll()).toEqual({ requiredFailures: [] });
    expect(processesWith(marker)).toEqual([]);
    expect(processesWith(late.marker)).toEqual([]);
    expect(spawns(log)).toHaveLength(1);
    expect(spawns(late.log)).toEqual([]);
  });
});

describe('a connect already under way when shutdown begins', () => {
  it('opens no transport once the host is closing, even though it passed every check before', async () => {
    const d = dir();
    const { input, log, marker } = markedEcho(d, 'fx');
    const config = ServerConfigSchema.parse(input);
    let closing = false;
    let releasePath: (path: string | undefined) => void = () => undefined;
    let pathAsked = false;
    const sessions = new SessionManager(
      { events: new EventBus(), configs: () => [config], isLaunchApproved: () => true, closing: () => closing },
      {
        credentials: new MemoryCredentialStore(),
        createTransport,
        // The connect waits here, after its approval and environment checks and right before the spawn.
        loginPath: () => {
          pathAsked = true;
          return new Promise((resolve) => (releasePath = resolve));
        },
      },
    );
    hosts.push(sessions);
    const connecting = sessions.client('fx');
    await until(() => pathAsked, 10_000, 'the connect to reach its last step before the spawn');
    closing = true;
    releasePath(undefined);
    await expect(connecting).rejects.toMatchObject({ code: 'shutting_down', serverId: 'fx' });
    expect(sessions.status('fx').state).not.toBe('failed');
    expect(processesWith(marker)).toEqual([]);
    expect(spawns(log)).toEqual([]);
  });
});
