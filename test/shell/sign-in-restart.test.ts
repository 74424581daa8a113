// A sign-in outlives its core: headless Switchboard from source (the shell, its core in a child process), the real
// test authorization server and an MCP server that requires its tokens, the bridge a page uses, and the test as the
// browser. The sign-in starts, the core is killed with SIGKILL between "browser sent off" and "redirect arrives", the
// shell's redirect listener stays, the new core takes the flow over, and the redirect then signs the server in: a call
// works. A redirect with another state is refused by the shell and the flow keeps waiting; the state is used once.
// A kill while the core exchanges the code (the redirect's state matched, the token request is under way) loses
// nothing: the shell kept the redirect until a core said how the exchange went, and gives it to the new core, which
// signs in; when the dead core's request had used the code up, the new core's exchange fails and says so.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuthStatus } from '../../shared/domains/auth.js';
import { startWorld, type World } from '../fixtures/auth/oauth-world.js';
import { alive, until } from './support/processes.js';
import { corePid, killCore, launch, stopLaunched, type Bridge } from './support/headless.js';

let world: World | undefined;

afterEach(async () => {
  // Everything this test started is gone: the shell, its core (checked by stopLaunched), then the in-process servers.
  await stopLaunched();
  await world?.close();
  world = undefined;
});

async function addProtected(bridge: Bridge, url: string): Promise<void> {
  await bridge.rpc('servers.add', {
    config: { id: 'p', name: 'p', startup: 'manual', transport: { type: 'http', url, headers: {}, allowInsecureHttp: false } },
  });
}

/** Polls the core (a new one answers core_restarted or core_unavailable until it runs) until `check` holds. */
async function statusUntil(bridge: Bridge, what: string, check: (s: AuthStatus) => boolean): Promise<AuthStatus> {
  let last: AuthStatus | undefined;
  const deadline = Date.now() + 30_000;
  for (;;) {
    last = await bridge.rpc<AuthStatus>('auth.status', { id: 'p' }).catch(() => undefined);
    if (last !== undefined && check(last)) return last;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last status ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The redirect URL with its state replaced (someone else's request). */
function withOtherState(redirect: string): string {
  const u = new URL(redirect);
  u.searchParams.set('state', 'x'.repeat(43));
  return u.href;
}

describe('a sign-in across a core restart', () => {
  it('kill -9 of the core after the browser was sent off: the new core takes the flow over, a wrong state is refused, the redirect signs in and a call works', async () => {
    world = await startWorld();
    const launched = await launch();
    const { bridge } = launched;
    await addProtected(bridge, world.mcpUrl);

    const begun = await bridge.rpc<AuthStatus>('auth.begin', { id: 'p' });
    const authorizationUrl = begun.flow?.authorizationUrl;
    expect(authorizationUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/authorize\?/);
    const redirectUri = begun.flow?.redirectUri;
    expect(redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const firstCore = corePid(launched.child.pid!);

    await killCore(launched);
    expect(corePid(launched.child.pid!)).not.toBe(firstCore);
    // The new core shows the same sign-in, still waiting at the browser step, on the same redirect address.
    const resumed = await statusUntil(bridge, 'the new core to show the sign-in', (s) => s.flow?.authorizationUrl === authorizationUrl);
    expect(resumed.state).toBe('in-progress');
    expect(resumed.flow?.redirectUri).toBe(redirectUri);

    // The browser: consent at the authorization server, which redirects to the shell's loopback listener.
    const redirect = await world.consent(authorizationUrl!);
    expect(redirect.startsWith(`${redirectUri!}?`)).toBe(true);
    // Someone else's redirect (another state): refused by the shell with the static page; the flow keeps waiting.
    const forged = await fetch(withOtherState(redirect));
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('This sign-in could not be completed');
    expect((await bridge.rpc<AuthStatus>('auth.status', { id: 'p' })).state).toBe('in-progress');
    expect(world.tokenRequests.authorization_code).toBe(0);

    const page = await fetch(redirect);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('You can close this tab');
    const signedIn = await statusUntil(bridge, 'signed in', (s) => s.state === 'signed-in');
    expect(signedIn.issuer).toBe(world.issuer);
    expect(world.tokenRequests.authorization_code).toBe(1);

    // The server connects with the new grant and a call works.
    let call: { status: string; content?: unknown } | undefined;
    const deadline = Date.now() + 30_000;
    while (call === undefined) {
      call = await bridge
        .rpc<{ status: string; content?: unknown }>('tools.call', { name: 'mcp__p__whoami', arguments: {} })
        .catch((err: unknown) => {
          if (Date.now() > deadline) throw err;
          return new Promise<undefined>((r) => setTimeout(() => r(undefined), 100));
        });
    }
    expect(call.status).toBe('ok');
    expect(JSON.stringify(call)).toContain('alice');

    // The state was used once: the same redirect again is refused (the listener is gone or refuses it).
    const replay = await fetch(redirect).then(
      (r) => r.status,
      () => 'refused connection',
    );
    expect(replay).not.toBe(200);
    expect(world.tokenRequests.authorization_code).toBe(1);
  }, 120_000);

  it('the redirect arrives while no core runs: the shell holds it, the tab is answered once the new core has exchanged the code', async () => {
    world = await startWorld();
    // The wait before the restart holds the gap open long enough for the redirect to land in it.
    const launched = await launch({ SWITCHBOARD_TEST_CORE_RESTART_BACKOFF_MS: '2000' });
    const { bridge } = launched;
    await addProtected(bridge, world.mcpUrl);
    const begun = await bridge.rpc<AuthStatus>('auth.begin', { id: 'p' });
    const redirect = await world.consent(begun.flow!.authorizationUrl!);

    const core = await until('the core process', () => corePid(launched.child.pid!));
    const since = bridge.events.length;
    process.kill(core, 'SIGKILL');
    await until('the shell to see the core gone', () =>
      bridge.events.slice(since).some((e) => e.method === 'app.coreStatus' && (e.params as { state: string }).state === 'restarting'),
    );
    // No core runs now: the tab waits for the next one, which finishes the sign-in.
    const page = await fetch(redirect);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('You can close this tab');
    expect((await statusUntil(bridge, 'signed in', (s) => s.state === 'signed-in')).issuer).toBe(world.issuer);
    expect(world.tokenRequests.authorization_code).toBe(1);
    // The shell's log says what happened (and names no secret).
    const shellLog = (): string => {
      try {
        return readFileSync(join(launched.dataDir, 'logs', 'shell.log'), 'utf8');
      } catch {
        return '';
      }
    };
    await until('the shell to log the held redirect', () => shellLog().includes('arrived while no core was waiting'));
    expect(shellLog()).not.toContain(new URL(redirect).searchParams.get('code')!);
  }, 120_000);

  /** A world whose first token request waits for the test: `arrived` once it is in, `release` answers or drops it. */
  async function gatedWorld(): Promise<{ arrived: Promise<void>; release: (verdict: 'pass' | 'drop') => void }> {
    let arrive: () => void = () => undefined;
    const arrived = new Promise<void>((r) => (arrive = r));
    let release: (verdict: 'pass' | 'drop') => void = () => undefined;
    const released = new Promise<'pass' | 'drop'>((r) => (release = r));
    let gated = 0;
    world = await startWorld({
      tokenGate: () => {
        if (gated++ > 0) return Promise.resolve('pass');
        arrive();
        return released;
      },
    });
    return { arrived, release };
  }

  /** Begins a sign-in, consents, and opens the redirect (the tab) while the core's token request is held. */
  async function killDuringExchange(verdict: 'pass' | 'drop'): Promise<{ bridge: Bridge; page: Promise<Response> }> {
    const gate = await gatedWorld();
    const launched = await launch();
    const { bridge } = launched;
    await addProtected(bridge, world!.mcpUrl);
    const begun = await bridge.rpc<AuthStatus>('auth.begin', { id: 'p' });
    const redirect = await world!.consent(begun.flow!.authorizationUrl!);
    const core = await until('the core process', () => corePid(launched.child.pid!));
    const since = bridge.events.length;
    // The tab: the shell matches the state and hands the redirect to the core, which starts the exchange.
    const page = fetch(redirect);
    page.catch(() => undefined); // awaited by the test; a failed one is its failure, not an unhandled rejection
    await gate.arrived;
    process.kill(core, 'SIGKILL');
    await until('the core to be gone', () => !alive(core));
    // The dead core's token request: never handled ('drop'), or handled with nobody left to hear the answer ('pass').
    gate.release(verdict);
    await until('the shell to restart the core', () =>
      bridge.events.slice(since).some((e) => e.method === 'app.coreStatus' && (e.params as { state: string }).state === 'running'),
    );
    return { bridge, page };
  }

  it('kill -9 of the core during the code exchange: the shell kept the redirect, the new core exchanges it and signs in', async () => {
    const { bridge, page } = await killDuringExchange('drop');
    const signedIn = await statusUntil(bridge, 'signed in', (s) => s.state === 'signed-in');
    expect(signedIn.issuer).toBe(world!.issuer);
    // The one exchange the server handled is the new core's.
    expect(world!.tokenRequests.authorization_code).toBe(1);
    const tab = await page;
    expect(tab.status).toBe(200);
    expect(await tab.text()).toContain('You can close this tab');
  }, 120_000);

  it('kill -9 of the core after its exchange used the code up: the new core tries again and the sign-in fails, saying why', async () => {
    const { bridge, page } = await killDuringExchange('pass');
    const failed = await statusUntil(bridge, 'the sign-in to fail', (s) => s.flow?.failed !== undefined);
    expect(failed.state).not.toBe('signed-in');
    expect(failed.flow?.failed?.step).toBe('token');
    expect(failed.flow?.failed?.message).toMatch(/answered invalid_grant/);
    // The dead core's exchange and the new core's (the SDK may try its own once more).
    expect(world!.tokenRequests.authorization_code).toBeGreaterThanOrEqual(2);
    await (await page).text();
  }, 120_000);
});
