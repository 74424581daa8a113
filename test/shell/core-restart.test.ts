// The core in its own process, supervised, with real processes: headless Switchboard from source, a real stdio server,
// the bridge a page uses. kill -9 of the core mid-call ends that call with `core_restarted`, the shell starts a new
// core that ends the dead one's server process and says so, the definitions written before are all there, and a new
// call works, round after round, through the same bridge connection (no reload). A core that cannot start five times
// in a row makes the shell stop trying and say why, while the bridge keeps answering; so does a core killed from
// outside ten times in a short time (the system's out-of-memory killer ending every new core).
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { alive, childrenOf, until } from './support/processes.js';
import { corePid, launch, ROUNDS, stopLaunched } from './support/headless.js';
import { TSX_LOADER } from '../shared/support/tsx-loader.js';

const fixture = fileURLToPath(new URL('../fixtures/servers/calls-stdio.ts', import.meta.url));

// Everything this test started is gone: the shell, its core and their servers.
afterEach(stopLaunched);

describe('the core in its own process', () => {
  it(`kill -9 of the core mid-call, ${ROUNDS} times: the call ends core_restarted, a new core serves, its predecessor's server is ended, a settings change acknowledged just before is kept`, async () => {
    // More kills than the shell restarts by default within its window (it would stop an out-of-memory loop): raised.
    const { child, bridge } = await launch({ SWITCHBOARD_TEST_CORE_MAX_KILLS: String(ROUNDS + 1) });
    const detail = await bridge.rpc<{ approval?: { fingerprint: string } }>('servers.add', {
      config: {
        id: 'calls',
        name: 'calls',
        transport: { type: 'stdio', command: process.execPath, args: ['--import', TSX_LOADER, fixture] },
      },
    });
    await bridge.rpc('servers.approve', { id: 'calls', fingerprint: detail.approval!.fingerprint });
    await bridge.rpc('servers.connect', { id: 'calls' });
    const first = await bridge.rpc<{ status: string }>('tools.call', { name: 'mcp__calls__slow', arguments: { ms: 0, steps: 1 } });
    expect(first.status).toBe('ok');

    for (let round = 1; round <= ROUNDS; round++) {
      const core = await until('the core process', () => corePid(child.pid!));
      const server = await until('the server process', () => childrenOf(core)[0]);
      const restarts = bridge.events.length;
      const inFlight = bridge.rpc('tools.call', { name: 'mcp__calls__slow', arguments: { ms: 60_000, steps: 600 } }).then(
        () => 'answered',
        (err: Error & { code?: string }) => err.code,
      );
      // The call is running on the server once its progress arrives.
      await until('the call to be running', () => bridge.events.slice(restarts).some((e) => e.method === 'call.progress'));
      // A settings change acknowledged just before the kill must survive it.
      await bridge.rpc('servers.add', {
        config: {
          id: `saved-${round}`,
          name: `saved ${round}`,
          enabled: false,
          transport: { type: 'http', url: 'http://127.0.0.1:9/mcp' },
        },
      });
      process.kill(core, 'SIGKILL');
      expect(await inFlight).toBe('core_restarted');
      await until('the core to run again', () =>
        bridge.events.slice(restarts).some((e) => e.method === 'app.coreStatus' && (e.params as { state: string }).state === 'running'),
      );
      // The dead core's server is ended (the new core does it at start), and nothing of the dead core runs.
      await until(`the old server ${server} to be gone`, () => !alive(server));
      expect(alive(core)).toBe(false);
      // What was written before the kill is there, and the same bridge connection works with the new core.
      const servers = await bridge.rpc<{ id: string }[]>('servers.list', {});
      expect(servers.map((s) => s.id).sort()).toEqual(['calls', ...Array.from({ length: round }, (_, i) => `saved-${i + 1}`)].sort());
      await bridge.rpc('servers.connect', { id: 'calls' });
      const after = await bridge.rpc<{ status: string }>('tools.call', { name: 'mcp__calls__slow', arguments: { ms: 0, steps: 1 } });
      expect(after.status, `round ${round}`).toBe('ok');
    }
    const info = await bridge.rpc<{ notices: { id: string; message: string }[] }>('app.info', {});
    expect(info.notices.find((n) => n.id === 'core-restarted')?.message).toMatch(/core stopped \(killed by SIGKILL\) and was restarted/);
  }, 600_000);

  it('a gateway client during the gap: a clean 503 with a JSON-RPC error while no core runs, then served again with the same token', async () => {
    // The wait before the restart holds the gap open long enough to look at it (the shell's own waits are shorter).
    const { child, bridge } = await launch({ SWITCHBOARD_TEST_CORE_RESTART_BACKOFF_MS: '4000' });
    const detail = await bridge.rpc<{ approval?: { fingerprint: string } }>('servers.add', {
      config: {
        id: 'calls',
        name: 'calls',
        transport: { type: 'stdio', command: process.execPath, args: ['--import', TSX_LOADER, fixture] },
      },
    });
    await bridge.rpc('servers.approve', { id: 'calls', fingerprint: detail.approval!.fingerprint });
    await bridge.rpc('servers.connect', { id: 'calls' });
    const status = await bridge.rpc<{ url?: string; port?: number }>('gateway.enable', {});
    const added = await bridge.rpc<{ token: string }>('gateway.addClient', { name: 'ci', profile: { mode: 'all', writes: 'allow' } });
    const auth = { Authorization: `Bearer ${added.token}` };
    // A stateless (2026-07-28) client: no session to lose, so the same client object works across the restart.
    const client = new Client({ name: 'gap-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(status.url!), { requestInit: { headers: auth } }));
    const callSlow = async (): Promise<unknown> => {
      // A new core publishes its catalog a moment after the server connects.
      let tool: { name: string } | undefined;
      for (let attempt = 0; !tool; attempt++) {
        tool = (await client.listTools()).tools.find((t) => t.name.endsWith('slow'));
        if (!tool && attempt > 300) throw new Error('the gateway never listed the slow tool');
        if (!tool) await new Promise((r) => setTimeout(r, 100));
      }
      return client.callTool({ name: tool.name, arguments: { ms: 0, steps: 1 } });
    };
    expect(await callSlow()).toMatchObject({ content: [{ type: 'text', text: 'done after 0ms in 1 steps' }] });

    const core = await until('the core process', () => corePid(child.pid!));
    const restarts = bridge.events.length;
    process.kill(core, 'SIGKILL');
    // The shell has seen the core go (and waits 4 s before starting the next): this is the gap.
    await until('the shell to see the core gone', () =>
      bridge.events.slice(restarts).some((e) => e.method === 'app.coreStatus' && (e.params as { state: string }).state === 'restarting'),
    );
    // The SDK client hears an HTTP error, not a refused connection.
    const duringGap = await client.listTools().then(
      () => 'answered',
      (err: Error & { data?: { status?: number }; status?: number }) => err.data?.status ?? err.status ?? err.message,
    );
    expect(duringGap).toBe(503);
    // What it was told: Retry-After and a JSON-RPC error naming the restart.
    const raw = await fetch(status.url!, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(raw.status).toBe(503);
    expect(raw.headers.get('retry-after')).toBe('2');
    expect(await raw.json()).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32000, message: expect.stringMatching(/core is restarting/) },
    });

    await until('the core to run again', () =>
      bridge.events.slice(restarts).some((e) => e.method === 'app.coreStatus' && (e.params as { state: string }).state === 'running'),
    );
    await bridge.rpc('servers.connect', { id: 'calls' });
    // The same client, the same token (held by the shell, not the dead core), the same port: served again once the
    // new core has started its gateway (until then the door still answers 503).
    let after: unknown;
    for (let attempt = 0; after === undefined; attempt++) {
      after = await callSlow().catch((err: unknown) => {
        if (attempt > 300) throw err; // about 30 s
        return new Promise<undefined>((r) => setTimeout(() => r(undefined), 100));
      });
    }
    expect(after).toMatchObject({ content: [{ type: 'text', text: 'done after 0ms in 1 steps' }] });
    expect((await bridge.rpc<{ port?: number }>('gateway.status', {})).port).toBe(status.port);
    await client.close();
  }, 120_000);

  it('a core that cannot start five times in a row: the shell stops trying, says why with the log path, and still answers', async () => {
    const { bridge, stderr } = await launch({ SWITCHBOARD_TEST_CORE_START_FAILURE: '1' });
    await until(
      'the shell to give up',
      () => bridge.events.some((e) => e.method === 'app.coreStatus' && (e.params as { state: string }).state === 'failed'),
      60_000,
    );
    await until('the shell to say so', () =>
      stderr().includes("Switchboard's core could not start (it could not start: test-only start failure"),
    );
    const statuses = bridge.events
      .filter((e) => e.method === 'app.coreStatus')
      .map((e) => e.params as { state: string; reason?: string; logFile: string });
    expect(statuses.filter((s) => s.state === 'restarting')).toHaveLength(4);
    const last = statuses.at(-1)!;
    expect(last.state).toBe('failed');
    expect(last.reason).toContain('test-only start failure');
    expect(last.logFile).toMatch(/logs\/shell\.log$/);
    // The page is still served: a call is refused at once with the reason, not left waiting.
    const refused = await bridge.rpc('app.info', {}).catch((err: Error & { code?: string }) => err);
    expect(refused).toMatchObject({ code: 'core_unavailable' });
    expect((refused as Error).message).toContain('shell.log');
  }, 120_000);
  it('a core killed from outside again and again (an out-of-memory loop): after ten kills the shell stops, says why with the log path, and still answers', async () => {
    // Restarts at once, so the loop is quick; the kill limit is the shell's own.
    const { child, bridge } = await launch({ SWITCHBOARD_TEST_CORE_RESTART_BACKOFF_MS: '50' });
    for (let kill = 1; kill <= 10; kill++) {
      // Each core serves (it answers a call) before it is killed, as a core the system kills for its memory would.
      await bridge.rpc('app.info', {});
      const since = bridge.events.length;
      const core = await until('the core process', () => corePid(child.pid!));
      process.kill(core, 'SIGKILL');
      const next = await until(
        `the shell to restart or give up after kill ${kill}`,
        () =>
          bridge.events
            .slice(since)
            .map((e) => (e.method === 'app.coreStatus' ? (e.params as { state: string; reason?: string; logFile: string }) : undefined))
            .find((s) => s !== undefined && (s.state === 'running' || s.state === 'failed')),
        60_000,
      );
      if (kill < 10) {
        expect(next.state, `after kill ${kill}`).toBe('running');
        continue;
      }
      expect(next.state, 'after the tenth kill').toBe('failed');
      expect(next.reason).toContain('killed from outside 10 times within 300 s');
      expect(next.reason).toMatch(/kept killing the core, most often the system running out of memory/);
      expect(next.logFile).toMatch(/logs\/shell\.log$/);
    }
    await until('no core to run', () => corePid(child.pid!) === undefined);
    const refused = await bridge.rpc('app.info', {}).catch((err: Error & { code?: string }) => err);
    expect(refused).toMatchObject({ code: 'core_unavailable' });
    expect((refused as Error).message).toContain('shell.log');
  }, 300_000);
});
