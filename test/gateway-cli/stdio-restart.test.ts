// switchboard-gateway across a core restart, with real processes: headless Switchboard from source with its gateway
// on and a real stdio server, the stdio entry point launched by a real SDK v2 client the way another app would. The
// core is killed with SIGKILL; the shell answers the gateway's port with 503 while a new core starts; the same client
// object's next call succeeds, the entry point having waited out the gap and connected again, and said so on stderr.
// An idle client, one that sends nothing after the kill, hears tools/list_changed once the new core serves: the entry
// point noticed the upstream change stream end and connected again by itself.
import { fileURLToPath } from 'node:url';
import type { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { alive, until } from '../shell/support/processes.js';
import { corePid, coreRunningAgain, launch, stopLaunched } from '../shell/support/headless.js';
import { TSX_LOADER } from '../shared/support/tsx-loader.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixture = fileURLToPath(new URL('../fixtures/servers/calls-stdio.ts', import.meta.url));
const entry = fileURLToPath(new URL('../../electron/gateway-cli/main.ts', import.meta.url));

const clients: Client[] = [];
const pids: number[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => undefined);
  // The entry point ends when its stdin closes; then the shell, its core and their servers (checked by stopLaunched).
  for (const pid of pids.splice(0)) await until(`the entry point ${pid} to exit`, () => !alive(pid));
  await stopLaunched();
});

/** Starts the stdio entry point as a gateway client would, connected as client `ci`, hearing tools/list_changed. */
async function gatewayClient(dataDir: string, name: string) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', TSX_LOADER, entry, '--client', 'ci', '--data-dir', dataDir],
    cwd: root,
    stderr: 'pipe',
  });
  let said = '';
  (transport.stderr as PassThrough | null)?.on('data', (d: Buffer) => (said += d.toString()));
  const client = new Client({ name, version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
  const listChanged: string[] = [];
  client.setNotificationHandler('notifications/tools/list_changed', () => void listChanged.push('tools'));
  clients.push(client);
  await client.connect(transport, { timeout: 60_000 });
  pids.push(transport.pid!);
  return { transport, client, listChanged, stderr: () => said };
}

describe('switchboard-gateway across a core restart', () => {
  it('kill -9 of the core: the same stdio client calls again after the restart, the entry point reconnects by itself', async () => {
    // The wait before the restart holds the gap open: the call lands in it and must wait it out.
    const launched = await launch({ SWITCHBOARD_TEST_CORE_RESTART_BACKOFF_MS: '2000' });
    const { bridge } = launched;
    const detail = await bridge.rpc<{ approval?: { fingerprint: string } }>('servers.add', {
      config: {
        id: 'calls',
        name: 'calls',
        transport: { type: 'stdio', command: process.execPath, args: ['--import', TSX_LOADER, fixture] },
      },
    });
    await bridge.rpc('servers.approve', { id: 'calls', fingerprint: detail.approval!.fingerprint });
    await bridge.rpc('servers.connect', { id: 'calls' });
    await bridge.rpc('gateway.enable', {});
    await bridge.rpc('gateway.addClient', { name: 'ci', profile: { mode: 'all', writes: 'allow' } });

    const { transport, client, listChanged, stderr } = await gatewayClient(launched.dataDir, 'restart-test');
    const call = (): Promise<unknown> => client.callTool({ name: 'mcp__calls__slow', arguments: { ms: 0, steps: 1 } }, { timeout: 90_000 });
    expect(await call()).toMatchObject({ content: [{ type: 'text', text: 'done after 0ms in 1 steps' }] });

    const core = await until('the core process', () => corePid(launched.child.pid!));
    const since = bridge.events.length;
    process.kill(core, 'SIGKILL');
    await until('the shell to see the core gone', () =>
      bridge.events.slice(since).some((e) => e.method === 'app.coreStatus' && (e.params as { state: string }).state === 'restarting'),
    );
    // The same client object, no reconnect of its own, asking during the gap: the entry point waits it out (503 with
    // Retry-After), then connects again with the new core's key and sends the request there.
    const listed = await client.listTools(undefined, { timeout: 90_000 });
    expect(Array.isArray(listed.tools)).toBe(true);
    await coreRunningAgain(bridge, since);
    // The new core connects its servers when asked (as after any restart); then the next call works.
    await bridge.rpc('servers.connect', { id: 'calls' });
    // A new core publishes its catalog a moment after the server connects.
    let names: string[] = [];
    await until('the new core to list the tool', () => {
      void client.listTools().then(
        (r) => (names = r.tools.map((t) => t.name)),
        () => undefined,
      );
      return names.includes('mcp__calls__slow');
    });
    expect(await call()).toMatchObject({ content: [{ type: 'text', text: 'done after 0ms in 1 steps' }] });
    expect(stderr()).toContain("the gateway answered 503 (Switchboard's core is restarting); waiting for it to come back");
    expect(stderr()).toContain("connected to Switchboard's gateway again after its core restarted");
    expect(alive(core)).toBe(false);
    await until('the list change to reach the client', () => listChanged.includes('tools'));
    expect(alive(transport.pid!)).toBe(true);
  }, 180_000);

  it('kill -9 of the core while the stdio client is idle: it hears tools/list_changed without asking, once the new core serves', async () => {
    const launched = await launch();
    const { bridge } = launched;
    await bridge.rpc('gateway.enable', {});
    await bridge.rpc('gateway.addClient', { name: 'ci', profile: { mode: 'all', writes: 'allow' } });
    const { transport, client, listChanged, stderr } = await gatewayClient(launched.dataDir, 'idle-test');
    expect(Array.isArray((await client.listTools()).tools)).toBe(true);

    const core = await until('the core process', () => corePid(launched.child.pid!));
    const since = bridge.events.length;
    process.kill(core, 'SIGKILL');
    // From here on the client sends nothing.
    await until('the entry point to notice the gateway gone', () => stderr().includes("the gateway's change stream ended"), 60_000);
    const heard = listChanged.length;
    await coreRunningAgain(bridge, since);
    await until(
      'the entry point to connect again',
      () => stderr().includes("connected to Switchboard's gateway again after its core restarted"),
      60_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; the entry point said: ${stderr()}`);
    });
    await until('the list change to reach the idle client', () => listChanged.length > heard, 60_000);
    expect(alive(core)).toBe(false);
    expect(alive(transport.pid!)).toBe(true);
  }, 180_000);
});
