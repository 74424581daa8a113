// Authorization code + PKCE of our core against a real, well-kept authorization server (`oidc-provider`): dynamic
// registration of a native client with a loopback redirect URI, PKCE S256 required, RFC 8707 resource indicators
// with JWT access tokens for the MCP server URL (checked with the provider's JWKS), the provider's own login and
// consent pages driven by a scripted browser with a cookie jar, the redirect delivered to our loopback listener,
// then refresh-token rotation.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthCredentials } from '../../../electron/core/auth/credentials.js';
import { Browser, startOidcWorld, type OidcWorld } from '../../fixtures/auth/oidc-world.js';
import { addHttpServer, makeAuthHost, until, type AuthHarness } from './helpers.js';

let world: OidcWorld | undefined;
let h: AuthHarness | undefined;

afterEach(async () => {
  await h?.cleanup();
  await world?.close();
  h = undefined;
  world = undefined;
});

/** The user's browser: signs in and consents at the provider, then follows the redirect to the loopback listener. */
function browserSignsIn(harness: AuthHarness, browser: Browser, pages: string[], failures: unknown[]): void {
  harness.opener.onOpen = async (url) => {
    try {
      const redirectUri = new URL(url).searchParams.get('redirect_uri') ?? '';
      const redirect = await browser.signIn(url, (u) => `${u.origin}${u.pathname}` === redirectUri);
      const res = await fetch(redirect);
      pages.push(`${res.status} ${await res.text()}`);
    } catch (err) {
      failures.push(err);
      throw err;
    }
  };
}

async function whoami(harness: AuthHarness): Promise<string> {
  const client = await harness.sessions.client('p');
  const r = await client.callTool({ name: 'whoami', arguments: {} });
  return (r.content as { text: string }[])[0]!.text;
}

describe('authorization code + PKCE against oidc-provider', () => {
  it('registers, signs in through login + consent, connects with a JWT for the MCP server, and refreshes', async () => {
    world = await startOidcWorld();
    h = makeAuthHost();
    await addHttpServer(h.host, 'p', world.mcpUrl);

    const first = await h.sessions.connect('p');
    expect(first.state).toBe('needs-auth');
    expect(h.opener.opened).toEqual([]);

    const browser = new Browser('alice');
    const pages: string[] = [];
    const failures: unknown[] = [];
    browserSignsIn(h, browser, pages, failures);
    const begun = await h.auth.begin('p');
    expect(begun.flow?.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const done = await h.auth.settled('p');
    // The browser tab gets the listener's page telling the user to return to the app.
    await until(() => pages.length + failures.length > 0);
    expect(failures).toEqual([]);
    expect(pages[0]).toMatch(/^200 [\s\S]*return to Switchboard/);
    expect(done.flow?.failed).toBeUndefined();
    expect(done.state).toBe('signed-in');
    expect(done.issuer).toBe(world.issuer);
    expect(h.sessions.status('p').state).toBe('connected');

    // Dynamic registration: a native public client with the loopback redirect URI.
    expect(world.registrations).toHaveLength(1);
    const registered = world.registrations[0]!;
    expect(registered.application_type).toBe('native');
    expect(registered.token_endpoint_auth_method).toBe('none');
    expect(registered.redirect_uris).toEqual([begun.flow?.redirectUri]);

    // The authorization request: PKCE S256, our state, the RFC 8707 resource, the challenge's scope.
    expect(world.authorizationRequests).toHaveLength(1);
    const req = world.authorizationRequests[0]!.searchParams;
    expect(req.get('code_challenge_method')).toBe('S256');
    expect(req.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(req.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(req.get('resource')).toBe(world.mcpUrl);
    expect(req.get('scope')?.split(' ')).toContain('mcp:read');
    expect(world.tokenRequests.authorization_code).toBe(1);
    // The browser went through the provider's login and consent pages and kept its session cookie between them.
    expect(browser.visited.filter((u) => new URL(u).pathname.startsWith('/interaction/')).length).toBeGreaterThanOrEqual(4);
    expect(browser.cookieNames()).toContain('_session');

    // A tool call succeeds with a JWT access token issued for the MCP server URL.
    expect(await whoami(h)).toBe('signed in');
    const token = world.accepted.at(-1)!.token;
    const claims = decodeJwt(token);
    expect(claims.iss).toBe(world.issuer);
    expect(claims.aud).toBe(world.mcpUrl);
    expect(claims.sub).toBe('alice');
    expect(String(claims.scope).split(' ')).toContain('mcp:read');

    // No token or refresh token in the settings dir, the logs, the host events or the status.
    const creds = new AuthCredentials(h.credentials);
    const grant = (await creds.grant('p', world.mcpUrl))!;
    expect(grant.tokens.access_token).toBe(token);
    const refreshToken = grant.tokens.refresh_token;
    expect(refreshToken).toBeDefined();
    const files = readdirSync(h.dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'));
    expect(files.length).toBeGreaterThan(0);
    for (const secret of [token, refreshToken!]) {
      for (const text of files) expect(text).not.toContain(secret);
      expect(h.logs.join('\n')).not.toContain(secret);
      expect(JSON.stringify(h.events)).not.toContain(secret);
      expect(JSON.stringify(await h.auth.status('p'))).not.toContain(secret);
    }

    // Refresh: with the stored token expired, the next call refreshes once and the provider rotates the refresh token.
    await creds.saveGrant('p', { ...grant, expiresAt: Date.now() - 1000 });
    const refreshesBefore = world.tokenRequests.refresh_token;
    expect(await whoami(h)).toBe('signed in');
    expect(world.tokenRequests.refresh_token - refreshesBefore).toBe(1);
    const after = (await creds.grant('p', world.mcpUrl))!;
    expect(after.tokens.access_token).not.toBe(token);
    expect(after.tokens.refresh_token).toBeDefined();
    expect(after.tokens.refresh_token).not.toBe(refreshToken);
    expect(after.expiresAt!).toBeGreaterThan(Date.now());
    expect(world.accepted.at(-1)!.token).toBe(after.tokens.access_token);
    expect(decodeJwt(after.tokens.access_token).aud).toBe(world.mcpUrl);
    expect(h.opener.opened).toHaveLength(1);
  });
});
