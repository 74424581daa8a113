// Hostile authorization servers and callbacks: refused with a clear error, the opener never called, nothing
// rendered as markup, state single-use and checked, iss checked, no S256 → no sign-in.
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkCallback } from '../../../electron/core/auth/callback.js';
import { startWorld, type World } from '../../fixtures/auth/oauth-world.js';
import { addHttpServer, makeAuthHost, until, type AuthHarness } from './helpers.js';

let h: AuthHarness | undefined;
let world: World | undefined;
const servers: Server[] = [];
afterEach(async () => {
  await h?.cleanup();
  await world?.close();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  h = undefined;
  world = undefined;
});

/** An MCP endpoint that always says 401 and an AS whose metadata names a hostile authorization endpoint. */
async function hostileWorld(endpoint: string): Promise<string> {
  const server = createServer((req, res) => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const url = new URL(req.url ?? '/', base);
    if (url.pathname.startsWith('/.well-known/oauth-protected-resource')) {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ resource: `${base}/mcp`, authorization_servers: [base] }));
    } else if (url.pathname === '/.well-known/oauth-authorization-server') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          issuer: base,
          authorization_endpoint: endpoint,
          token_endpoint: `${base}/token`,
          registration_endpoint: `${base}/register`,
          response_types_supported: ['code'],
          code_challenge_methods_supported: ['S256'],
        }),
      );
    } else if (url.pathname === '/register') {
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ client_id: 'c1', redirect_uris: [] }));
    } else {
      res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` }).end();
    }
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

describe('hostile authorization endpoints', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-hostile-'));
  const marker = join(dir, 'marker');
  it.each([
    'javascript:alert(1)',
    'data:text/html,x',
    'file:///etc/passwd',
    `https://a$(touch ${marker}).example/authorize`,
    'http://evil.example/authorize',
    'https://as.example/author\r\nize',
  ])('%j is refused at the browser step and never opened', async (endpoint) => {
    const mcpUrl = await hostileWorld(endpoint);
    h = makeAuthHost();
    await addHttpServer(h.host, 'p', mcpUrl);
    await h.auth.begin('p');
    const status = await h.auth.settled('p');
    expect(status.flow?.failed).toBeDefined();
    expect(status.flow?.failed?.message).toMatch(/refused|not a valid URL|scheme|Invalid URL|plain http/i);
    expect(h.opener.opened).toEqual([]);
    expect(existsSync(marker)).toBe(false);
  });
});

describe('callbacks', () => {
  const expected = {
    serverId: 'p',
    redirectUri: 'http://127.0.0.1:5555/callback',
    state: 'S'.repeat(43),
    issuer: 'https://as.example',
    issRequired: true,
  };
  const at = (q: string): string => `http://127.0.0.1:5555/callback?${q}`;
  it('refuses missing, wrong and duplicated state without ending the flow', () => {
    for (const q of ['code=1&iss=https%3A%2F%2Fas.example', `code=1&state=${'T'.repeat(43)}`, `code=1&state=${'S'.repeat(43)}&state=x`]) {
      const v = checkCallback(at(q), expected);
      expect(v.ok).toBe(false);
      if (!v.ok) expect(v.consume).toBe(false);
    }
  });
  it('refuses a wrong or missing iss and ends the flow', () => {
    const s = `state=${'S'.repeat(43)}`;
    for (const q of [`code=1&${s}&iss=https%3A%2F%2Fevil.example`, `code=1&${s}`]) {
      const v = checkCallback(at(q), expected);
      expect(v).toMatchObject({ ok: false, consume: true });
    }
  });
  it('reports error= as plain text, control characters stripped', () => {
    const v = checkCallback(
      at(
        `state=${'S'.repeat(43)}&iss=https%3A%2F%2Fas.example&error=access_denied&error_description=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E%0A%1B%5B31m`,
      ),
      expected,
    );
    expect(v.ok).toBe(false);
    if (!v.ok) {
      expect(v.error.message).toContain('access_denied');
      expect(v.error.message).not.toMatch(/[\u0000-\u001f]/);
    }
  });
  it('refuses another redirect address or path', () => {
    for (const u of [
      'http://127.0.0.1:5556/callback?code=1',
      'http://127.0.0.1:5555/other?code=1',
      'http://localhost:5555/callback?code=1',
      'javascript:alert(1)',
    ]) {
      expect(checkCallback(u, expected)).toMatchObject({ ok: false, consume: false });
    }
  });
});

describe('flows against the real authorization server', () => {
  it('a pasted URL from another flow (wrong state) is refused and the flow goes on; a replay after success is refused', async () => {
    world = await startWorld();
    h = makeAuthHost();
    await addHttpServer(h.host, 'p', world.mcpUrl);
    let redirect = '';
    h.opener.onOpen = async (url) => {
      redirect = await world!.consent(url);
    };
    await h.auth.begin('p');
    await until(() => redirect !== '');
    const forged = new URL(redirect);
    forged.searchParams.set('state', 'x'.repeat(43));
    await expect(h.auth.complete('p', forged.href)).rejects.toMatchObject({ code: 'auth_required' });
    expect((await h.auth.status('p')).state).toBe('in-progress');
    await h.auth.complete('p', redirect);
    expect((await h.auth.settled('p')).state).toBe('signed-in');
    await expect(h.auth.complete('p', redirect)).rejects.toMatchObject({ code: 'auth_required' });
    // The listener refuses the replay too.
    const res = await fetch(redirect).catch(() => undefined);
    expect(res === undefined || res.status !== 200).toBe(true);
  });

  it('a wrong iss ends the flow before any token request', async () => {
    world = await startWorld({ wrongIss: 'http://127.0.0.1:1' });
    h = makeAuthHost();
    await addHttpServer(h.host, 'p', world.mcpUrl);
    h.opener.onOpen = async (url) => {
      await fetch(await world!.consent(url));
    };
    await h.auth.begin('p');
    const status = await h.auth.settled('p');
    expect(status.flow?.failed?.message).toMatch(/iss does not match/);
    expect(world.tokenRequests.authorization_code).toBe(0);
  });

  it('an authorization server without S256 is refused before the browser opens', async () => {
    world = await startWorld({ noS256: true });
    h = makeAuthHost();
    await addHttpServer(h.host, 'p', world.mcpUrl);
    await h.auth.begin('p');
    const status = await h.auth.settled('p');
    expect(status.flow?.failed?.message).toMatch(/S256/);
    expect(h.opener.opened).toEqual([]);
  });

  it('an error= redirect with attacker text fails the flow with plain text', async () => {
    world = await startWorld();
    h = makeAuthHost();
    await addHttpServer(h.host, 'p', world.mcpUrl);
    h.opener.onOpen = async (url) => {
      const state = new URL(url).searchParams.get('state') ?? '';
      const redirectUri = new URL(url).searchParams.get('redirect_uri') ?? '';
      await fetch(
        `${redirectUri}?state=${state}&iss=${encodeURIComponent(world!.issuer)}&error=access_denied&error_description=${encodeURIComponent('<b>pwned</b>\u0007')}`,
      );
    };
    await h.auth.begin('p');
    const status = await h.auth.settled('p');
    expect(status.flow?.failed?.message).toContain('access_denied');
    expect(status.flow?.failed?.message).not.toContain('\u0007');
  });
});
