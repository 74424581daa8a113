// The `switchboard` command while headless Switchboard runs on the same data folder, with real processes: the built
// bin goes through the running app's core (its control door, control.json) instead of failing on the folder's lock —
// the call is in the app's History, made on the server process the app already runs, and the command says on stderr
// (never in --json stdout) which core it used. A control.json the app does not own (a wrong token) is refused; one
// left by a launch that is gone (dead pid, or a live pid with no door) is ignored and the command starts its own core.
// A command interrupted (SIGINT, SIGTERM) or killed (SIGKILL) during a call has that call cancelled in the app.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CONTROL_FILE, parseControlFile, type ControlFile } from '../../electron/shell/control-file.js';
import { coreRunningAgain, corePid, launch, stopLaunched, type Launched } from '../shell/support/headless.js';
import { alive, childrenOf, until } from '../shell/support/processes.js';
import { cleanup, tempDir } from '../shared/support/harness.js';
import { TSX_LOADER } from '../shared/support/tsx-loader.js';
import { startWorld, type World } from '../fixtures/auth/oauth-world.js';
import { buildCli, echoFixture, processesWith, runCli, startCli, stopAll } from './cli-harness.js';

const callsFixture = fileURLToPath(new URL('../fixtures/servers/calls-stdio.ts', import.meta.url));
let world: World;
beforeAll(async () => {
  buildCli();
  world = await startWorld({ tokenPrefix: 'CANARY_route_' });
}, 120_000);
afterEach(async () => {
  await stopAll();
  await stopLaunched();
});
const dirs: string[] = [];
afterAll(async () => {
  dirs.splice(0).forEach(cleanup);
  await world.close();
});

/** A running headless app with the echo fixture added, approved and connected; `marker` finds its server process. */
async function appWithEcho(marker: string): Promise<Launched> {
  const app = await launch();
  const detail = await app.bridge.rpc<{ approval?: { fingerprint: string } }>('servers.add', {
    config: {
      id: 'echo',
      name: 'echo',
      transport: { type: 'stdio', command: process.execPath, args: ['--import', TSX_LOADER, echoFixture, `--marker=${marker}`] },
    },
  });
  await app.bridge.rpc('servers.approve', { id: 'echo', fingerprint: detail.approval!.fingerprint });
  const status = await app.bridge.rpc<{ state: string }>('servers.connect', { id: 'echo' });
  expect(status.state).toBe('connected');
  return app;
}

function controlFile(dataDir: string): ControlFile {
  return parseControlFile(readFileSync(join(dataDir, CONTROL_FILE), 'utf8'))!;
}

describe('switchboard while Switchboard runs on the same data folder', () => {
  it("goes through the running app's core: the call is in its History, on the server it already runs", async () => {
    const marker = `cli-route-${process.pid}-${Date.now()}`;
    const app = await appWithEcho(marker);
    const servers = processesWith(marker);
    expect(servers).toHaveLength(1);

    const listed = await runCli(['servers', 'list', '--json', '--data-dir', app.dataDir]);
    expect(listed.stderr).not.toMatch(/in use|data_locked/);
    expect(listed.code, listed.stderr).toBe(0);
    const summaries = JSON.parse(listed.stdout) as { id: string; state?: string; status?: { state: string } }[];
    expect(summaries.map((s) => s.id)).toEqual(['echo']);
    expect(listed.stderr).toContain(`Using the running Switchboard's core (process ${app.child.pid})`);

    const called = await runCli([
      'call',
      'mcp__echo__echo',
      '--args',
      '{"text":"through the running app"}',
      '--server',
      'echo',
      '--json',
      '--data-dir',
      app.dataDir,
    ]);
    expect(called.code, called.stderr).toBe(0);
    // stdout is the outcome alone (the note is on stderr).
    const outcome = JSON.parse(called.stdout) as { callId: string; status: string; presentation: { text: string } };
    expect(outcome.status).toBe('ok');
    expect(outcome.presentation.text).toContain('through the running app');
    expect(called.stderr).toContain("Using the running Switchboard's core");

    // The app's own History has the command's call (read through the bridge a page uses).
    const history = await app.bridge.rpc<{ entries: { callId: string; tool: string; arguments: Record<string, unknown> }[] }>(
      'calls.history',
      { limit: 10 },
    );
    const entry = history.entries.find((e) => e.callId === outcome.callId);
    expect(entry).toMatchObject({ tool: 'mcp__echo__echo', arguments: { text: 'through the running app' } });

    // The same server process served it: the command started no core and no server of its own, and left the app's.
    expect(processesWith(marker)).toEqual(servers);
    const status = await app.bridge.rpc<{ state: string }>('servers.status', { id: 'echo' });
    expect(status.state).toBe('connected');

    // `history export` reads the same History.
    const exported = await runCli(['history', 'export', outcome.callId, '--data-dir', app.dataDir]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain('through the running app');
  }, 120_000);

  it('a tool error and an unknown tool keep their exit codes through the running app', async () => {
    const app = await appWithEcho(`cli-route-codes-${process.pid}`);
    const unknown = await runCli(['call', 'mcp__echo__nope', '--server', 'echo', '--data-dir', app.dataDir, '--json']);
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.stdout)).toMatchObject({ ok: false, exitCode: 2, code: 'not_found' });
    const badArgs = await runCli(['call', 'mcp__echo__add', '--args', '{"a":"x"}', '--server', 'echo', '--data-dir', app.dataDir]);
    expect(badArgs.code).toBe(5);
  }, 120_000);

  it("a sign-in the running app needs: the command prints the URL (pendingAuth with --json) and the app's core completes it", async () => {
    const app = await launch();
    await app.bridge.rpc('servers.add', { config: { id: 'oa', name: 'oa', transport: { type: 'http', url: world.mcpUrl } } });
    const cli = startCli(['--data-dir', app.dataDir, 'tools', 'list', '--server', 'oa', '--json', '--wait-for-auth', '60']);
    const [line] = await cli.waitFor(/^\{"pendingAuth":true.*\}$/m);
    const pending = JSON.parse(line) as { authUrl: string; serverId: string };
    expect(pending.serverId).toBe('oa');
    expect(pending.authUrl.startsWith(`${world.issuer}/authorize?`)).toBe(true);
    await cli.waitFor(/Open this address in a browser to sign in: http:\/\/127\.0\.0\.1:\d+\/authorize\?/);
    // The browser is sent back to the app's loopback listener: the running core holds the flow.
    const landed = await fetch(await world.consent(pending.authUrl));
    expect(landed.status).toBe(200);
    await landed.text();
    const r = await cli.done;
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect((JSON.parse(lines[lines.length - 1] ?? '') as { name: string }[]).map((t) => t.name)).toEqual(['mcp__oa__whoami']);
    expect(r.stdout + r.stderr).not.toContain('CANARY_route_');
    // Signed in in the app itself: its next call needs no sign-in.
    expect(await app.bridge.rpc<{ state: string }>('auth.status', { id: 'oa' })).toMatchObject({ state: 'signed-in' });
  }, 120_000);

  it("a call in flight when the running app's core dies ends with core_restarted and exit 7", async () => {
    const app = await launch();
    const detail = await app.bridge.rpc<{ approval?: { fingerprint: string } }>('servers.add', {
      config: {
        id: 'calls',
        name: 'calls',
        transport: { type: 'stdio', command: process.execPath, args: ['--import', TSX_LOADER, callsFixture] },
      },
    });
    await app.bridge.rpc('servers.approve', { id: 'calls', fingerprint: detail.approval!.fingerprint });
    const since = app.bridge.events.length;
    const cli = startCli([
      '--data-dir',
      app.dataDir,
      'call',
      'mcp__calls__slow',
      '--args',
      '{"ms":60000,"steps":600}',
      '--server',
      'calls',
      '--json',
    ]);
    // The call runs on the server once its progress reaches the app's page.
    await until('the call to be running', () => app.bridge.events.slice(since).some((e) => e.method === 'call.progress'));
    const core = await until('the core process', () => corePid(app.child.pid!));
    const server = await until('the server process', () => childrenOf(core)[0]);
    process.kill(core, 'SIGKILL');
    const r = await cli.done;
    expect(r.code).toBe(7);
    expect(JSON.parse(r.stdout.trim().split('\n').pop() ?? '')).toMatchObject({ ok: false, exitCode: 7, code: 'core_restarted' });
    await coreRunningAgain(app.bridge, since);
    // The new core ends the dead one's server.
    await until(`the dead core's server ${server} to be gone`, () => !alive(server));
  }, 120_000);

  it('SIGINT, SIGTERM or SIGKILL of a call through the running app cancels it there: it ends cancelled in the History', async () => {
    const app = await launch();
    const detail = await app.bridge.rpc<{ approval?: { fingerprint: string } }>('servers.add', {
      config: {
        id: 'calls',
        name: 'calls',
        transport: { type: 'stdio', command: process.execPath, args: ['--import', TSX_LOADER, callsFixture] },
      },
    });
    await app.bridge.rpc('servers.approve', { id: 'calls', fingerprint: detail.approval!.fingerprint });
    const history = async (): Promise<{ callId: string; tool: string; status: string }[]> =>
      (await app.bridge.rpc<{ entries: { callId: string; tool: string; status: string }[] }>('calls.history', { limit: 50 })).entries;
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGKILL'] as const) {
      const since = app.bridge.events.length;
      const cli = startCli([
        '--data-dir',
        app.dataDir,
        'call',
        'mcp__calls__slow',
        '--args',
        '{"ms":60000,"steps":600}',
        '--server',
        'calls',
        '--json',
      ]);
      // The call runs on the server once its progress reaches the app's page.
      const progress = await until(`the call to be running (${signal})`, () =>
        app.bridge.events.slice(since).find((e) => e.method === 'call.progress'),
      );
      const callId = (progress.params as { callId: string }).callId;
      cli.kill(signal);
      const r = await cli.done;
      if (signal !== 'SIGKILL') {
        expect(r.code, `${signal}: ${r.stderr}`).toBe(signal === 'SIGINT' ? 130 : 143);
        const printed = JSON.parse(r.stdout.trim().split('\n').pop() ?? '') as { code: string; callId: string; message: string };
        expect(printed).toMatchObject({ ok: false, code: 'cancelled', callId });
        expect(printed.message).toContain(`cancelled (${signal})`);
      }
      // The app's call ended cancelled (not left running for its minute), and its History says so.
      let entry: { callId: string; tool: string; status: string } | undefined;
      for (const deadline = Date.now() + 30_000; entry?.status !== 'cancelled';) {
        entry = (await history()).find((e) => e.callId === callId);
        if (Date.now() > deadline) throw new Error(`${signal}: the app's History shows the call as ${JSON.stringify(entry)}`);
        if (entry?.status !== 'cancelled') await new Promise((r) => setTimeout(r, 100));
      }
      expect(entry).toMatchObject({ tool: 'mcp__calls__slow', status: 'cancelled' });
    }
  }, 180_000);

  it('refuses a control.json whose token the running app does not take', async () => {
    const app = await launch();
    const file = controlFile(app.dataDir);
    writeFileSync(
      join(app.dataDir, CONTROL_FILE),
      JSON.stringify({ ...file, token: file.token.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) }),
      { mode: 0o600 },
    );
    const listed = await runCli(['servers', 'list', '--json', '--data-dir', app.dataDir]);
    expect(listed.code).toBe(7);
    expect(JSON.parse(listed.stdout)).toMatchObject({ ok: false, exitCode: 7, code: 'denied' });
    expect(listed.stderr).toContain('refused the command (HTTP 401)');
  }, 60_000);

  it('ignores a control.json left by a launch that is gone, and starts its own core', async () => {
    const dataDir = tempDir('sb-cli-stale-');
    dirs.push(dataDir);
    // A pid that was used and is gone now.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(gone.stdout);
    expect(alive(deadPid)).toBe(false);
    const stale: ControlFile = { version: 1, url: 'http://127.0.0.1:9', pid: deadPid, token: 'A'.repeat(43) };
    writeFileSync(join(dataDir, CONTROL_FILE), JSON.stringify(stale), { mode: 0o600 });
    const listed = await runCli(['servers', 'list', '--json', '--data-dir', dataDir]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([]);
    expect(listed.stderr).not.toContain('Using the running');

    // A live pid that is not a Switchboard (pid reuse): nothing answers at the URL, so the command runs on its own.
    writeFileSync(join(dataDir, CONTROL_FILE), JSON.stringify({ ...stale, pid: process.pid }), { mode: 0o600 });
    const again = await runCli(['servers', 'list', '--json', '--data-dir', dataDir]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('Using the running');
  }, 60_000);
});
