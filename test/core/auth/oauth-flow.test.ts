// Authorization code + PKCE against the small test authorization server (test/fixtures/auth/test-as.ts, which lets us
// count token requests and craft hostile answers; oidc-provider.test.ts runs the same flow against oidc-provider) and an
// SDK v2 MCP server that requires its tokens: the test plays the browser and delivers or pastes the redirect.
import { afterEach, describe, expect, it } from 'vitest';
import { accounts, AuthCredentials } from '../../../electron/core/auth/credentials.js';
import { startWorld, type World } from '../../fixtures/auth/oauth-world.js';
import { addHttpServer, makeAuthHost, until, type AuthHarness } from './helpers.js';
import { dataFileTexts } from '../../shared/support/data-files.js';

let world: World | undefined;
let h: AuthHarness | undefined;

afterEach(async () => {
  await h?.cleanup();
  await world?.close();
  h = undefined;
  world = undefined;
});

/** The user's browser: consent, then follow the redirect to the loopback listener. */
function browserDeliversRedirect(w: World, harness: AuthHarness): void {
  harness.opener.onOpen = async (url) => {
    const redirect = await w.consent(url);
    await fetch(redirect);
  };
}

describe('authorization code + PKCE with a real authorization server', () => {
  it('signs in through the browser and the loopback listener, then connects with the token', async () => {
    world = await startWorld();
    h = makeAuthHost();
    await addHttpServer(h.host, 'p', world.mcpUrl);

    // No credentials: connecting ends in needs-auth and never opens the browser.
    const first = await h.sessions.connect('p');
    expect(first.state).toBe('needs-auth');
    expect(first.error?.code).toBe('auth_required');
    expect(h.opener.opened).toEqual([]);
    expect((await h.auth.status('p')).state).toBe('needs-auth');

    browserDeliversRedirect(world, h);
    const begun = await h.auth.begin('p');
    expect(begun.flow?.authorizationUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/authorize\?/);
    expect(begun.flow?.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const done = await h.auth.settled('p');
    expect(done.state).toBe('signed-in');
    expect(done.issuer).toBe(world.issuer);
    expect(h.sessions.status('p').state).toBe('connected');

    // The authorization request: PKCE S256, our state, RFC 8707 resource, scopes from the challenge.
    const req = world.authorizationRequests.at(-1)!;
    expect(req.searchParams.get('code_challenge_method')).toBe('S256');
    expect(req.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(req.searchParams.get('resource')).toBe(world.mcpUrl);
    expect(req.searchParams.get('scope')?.split(' ')).toContain('mcp:read');
    expect(world.tokenRequests.authorization_code).toBe(1);

    // The MCP server got a bearer token; it appears nowhere in the settings file, logs or events.
    const client = await h.sessions.client('p');
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(['whoami']);
    const sent = world.bearerSeen
      .filter((b) => b.startsWith('Bearer '))
      .at(-1)!
      .slice(7);
    expect(sent.length).toBeGreaterThan(20);
    const grant = await new AuthCredentials(h.credentials).grant('p', world.mcpUrl);
    const secrets = [sent, grant?.tokens.refresh_token ?? 'no-refresh'].filter((s) => s.length > 10);
    const files = dataFileTexts(h.dir);
    for (const s of secrets) {
      for (const text of files) expect(text).not.toContain(s);
      expect(h.logs.join('\n')).not.toContain(s);
      expect(JSON.stringify(h.events)).not.toContain(s);
      expect(JSON.stringify(await h.auth.status('p'))).not.toContain(s);
    }
    expect(h.events.some((e) => e.event === 'auth.changed')).toBe(true);
  });

  it('completes with the redirect URL pasted from the address bar, and refuses a replay of it', async () => {
    world = await startWorld();
    h = makeAuthHost();
    await addHttpServer(h.host, 'p', world.mcpUrl);
    let pasted = '';
    h.opener.onOpen = async (url) => {
      pasted = await world!.consent(url);
    };
    await h.auth.begin('p');
    await until(() => pasted !== '');
    const status = await h.auth.complete('p', pasted);
    expect(['signed-in', 'in-progress']).toContain(status.state);
    const done = await h.auth.settled('p');
    expect(done.state).toBe('signed-in');
    await until(() => h!.sessions.status('p').state === 'connected');
    await expect(h.auth.complete('p', pasted)).rejects.toMatchObject({ code: 'auth_required' });
  });

  it('refreshes once for 10 concurrent calls with an expired token, persisting the rotated token', async () => {
    world = await startWorld();
    h = makeAuthHost();
    await addHttpServer(h.host, 'p', world.mcpUrl);
    browserDeliversRedirect(world, h);
    await h.auth.begin('p');
    expect((await h.auth.settled('p')).state).toBe('signed-in');
    const creds = new AuthCredentials(h.credentials);
    const before = (await creds.grant('p', world.mcpUrl))!;
    expect(before.tokens.refresh_token).toBeDefined();
    await creds.saveGrant('p', { ...before, expiresAt: Date.now() - 1000 });

    const client = await h.sessions.client('p');
    const refreshesBefore = world.tokenRequests.refresh_token;
    const results = await Promise.all(Array.from({ length: 10 }, () => client.callTool({ name: 'whoami', arguments: {} })));
    expect(results.every((r) => (r.content as { text: string }[])[0]?.text === 'alice')).toBe(true);
    expect(world.tokenRequests.refresh_token - refreshesBefore).toBe(1);
    const after = (await creds.grant('p', world.mcpUrl))!;
    expect(after.tokens.access_token).not.toBe(before.tokens.access_token);
    expect(after.tokens.refresh_token).not.toBe(before.tokens.refresh_token);
    expect(after.expiresAt!).toBeGreaterThan(Date.now());
  });

  it('a revoked refresh token puts the server in needs-auth and deletes the grant', async () => {
    world = await startWorld();
    h = makeAuthHost();
    await addHttpServer(h.host, 'p', world.mcpUrl);
    browserDeliversRedirect(world, h);
    await h.auth.begin('p');
    await h.auth.settled('p');
    const creds = new AuthCredentials(h.credentials);
    const grant = (await creds.grant('p', world.mcpUrl))!;
    await creds.saveGrant('p', { ...grant, expiresAt: Date.now() - 1000 });
    await world.revokeRefreshTokens();
    await h.sessions.disconnect('p');
    const opened = h.opener.opened.length;
    const status = await h.sessions.connect('p');
    expect(status.state).toBe('needs-auth');
    const auth = await h.auth.status('p');
    expect(auth.state).toBe('needs-auth');
    expect(auth.reason).toMatch(/invalid_grant/);
    expect(await creds.grant('p', world.mcpUrl)).toBeUndefined();
    expect(h.opener.opened.length).toBe(opened);
  });

  it('sign out deletes the grant (next connect needs sign-in); disconnect keeps it', async () => {
    world = await startWorld();
    h = makeAuthHost();
    await addHttpServer(h.host, 'p', world.mcpUrl);
    browserDeliversRedirect(world, h);
    await h.auth.begin('p');
    await h.auth.settled('p');
    await h.sessions.disconnect('p');
    expect((await h.sessions.connect('p')).state).toBe('connected');
    const signedOut = await h.auth.signOut('p');
    expect(signedOut.state).toBe('signed-out');
    expect(await h.credentials.get(accounts.index('p'))).toBeNull();
    expect((await h.sessions.connect('p')).state).toBe('needs-auth');
  });

  it('a changed server URL never reuses the grant of the old one', async () => {
    world = await startWorld();
    h = makeAuthHost();
    await addHttpServer(h.host, 'p', world.mcpUrl);
    browserDeliversRedirect(world, h);
    await h.auth.begin('p');
    await h.auth.settled('p');
    const other = world.mcpUrl.replace('/mcp', '/mcp?v=2');
    const creds = new AuthCredentials(h.credentials);
    expect(await creds.grant('p', other)).toBeUndefined();
    expect(await creds.grant('p', world.mcpUrl)).toBeDefined();
  });

  it('steps up to the scope a 403 insufficient_scope asks for', async () => {
    world = await startWorld({ callScope: 'mcp:write' });
    h = makeAuthHost();
    await addHttpServer(h.host, 'p', world.mcpUrl);
    // The first consent grants only mcp:read.
    let round = 0;
    h.opener.onOpen = async (url) => {
      round++;
      const redirect = await world!.consent(url, round === 1 ? { scope: 'mcp:read' } : {});
      await fetch(redirect);
    };
    await h.auth.begin('p');
    await h.auth.settled('p');
    const call = async (): Promise<string> => {
      const client = await h!.sessions.client('p');
      const r = await client.callTool({ name: 'whoami', arguments: {} });
      return (r.content as { text: string }[])[0]!.text;
    };
    const text = await h.auth.runAuthorized('p', async () => {
      try {
        return await call();
      } catch (err) {
        await h!.sessions.disconnect('p');
        throw err;
      }
    });
    expect(text).toBe('alice');
    expect(round).toBe(2);
    expect(world.authorizationRequests.at(-1)!.searchParams.get('scope')?.split(' ')).toContain('mcp:write');
  });
});

describe('refusals before any authorization request', () => {
  it('a protected-resource metadata resource that does not match the server URL stops the flow at discovery', async () => {
    world = await startWorld({ prmResource: 'https://other.example/mcp' });
    h = makeAuthHost();
    await addHttpServer(h.host, 'p', world.mcpUrl);
    await h.auth.begin('p');
    const status = await h.auth.settled('p');
    expect(status.flow?.failed?.step).toBe('discovery');
    expect(status.flow?.failed?.message).toMatch(/does not match/);
    expect(world.authorizationRequests).toEqual([]);
    expect(h.opener.opened).toEqual([]);
  });
});
