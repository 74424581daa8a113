// Client credentials (no human): client_secret_post against the test authorization server; the token is minted
// again shortly before it expires (no refresh token exists for this grant); a wrong secret means needs-auth.
import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type World } from '../../fixtures/auth/oauth-world.js';
import { addHttpServer, makeAuthHost, type AuthHarness } from './helpers.js';

let world: World | undefined;
let h: AuthHarness | undefined;
afterEach(async () => {
  await h?.cleanup();
  await world?.close();
  h = undefined;
  world = undefined;
});

describe('client credentials', () => {
  it('connects without a browser and re-mints the token shortly before expiry', async () => {
    world = await startWorld({
      accessTokenTtl: 2,
      machineClient: { id: 'machine', secret: 'CANARY_secret', method: 'client_secret_post' },
    });
    h = makeAuthHost();
    await addHttpServer(h.host, 'm', world.mcpUrl);
    const status = await h.auth.setClient('m', {
      grant: 'client_credentials',
      clientId: 'machine',
      clientSecret: 'CANARY_secret',
      authMethod: 'client_secret_post',
      issuer: world.issuer,
    });
    expect(status.kind).toBe('client_credentials');
    expect(status.client).toMatchObject({ clientId: 'machine', hasSecret: true });
    expect(JSON.stringify(status)).not.toContain('CANARY_secret');
    const connected = await h.sessions.connect('m');
    expect(connected.state, `${JSON.stringify(await h.auth.status('m'))} ${h.logs.join(' | ')}`).toBe('connected');
    expect(world.tokenRequests.other).toBe(1);
    const client = await h.sessions.client('m');
    await client.listTools();
    expect(world.tokenRequests.other).toBe(1);
    await new Promise((r) => setTimeout(r, 1200));
    await client.listTools();
    expect(world.tokenRequests.other).toBe(2);
    expect(h.opener.opened).toEqual([]);
    expect(h.logs.join('\n')).not.toContain('CANARY_secret');
  });

  it('a refused client secret ends in needs-auth', async () => {
    world = await startWorld({ machineClient: { id: 'machine', secret: 'right', method: 'client_secret_basic' } });
    h = makeAuthHost();
    await addHttpServer(h.host, 'm', world.mcpUrl);
    await h.auth.setClient('m', {
      grant: 'client_credentials',
      clientId: 'machine',
      clientSecret: 'wrong',
      authMethod: 'client_secret_basic',
    });
    expect((await h.sessions.connect('m')).state).toBe('needs-auth');
    expect((await h.auth.status('m')).reason).toMatch(/Client credentials were refused/);
  });
});

describe('client credentials pinned to an issuer', () => {
  it('never sends the secret to another authorization server', async () => {
    world = await startWorld({ machineClient: { id: 'machine', secret: 'CANARY_pinned', method: 'client_secret_basic' } });
    h = makeAuthHost();
    await addHttpServer(h.host, 'm', world.mcpUrl);
    await h.auth.setClient('m', {
      grant: 'client_credentials',
      clientId: 'machine',
      clientSecret: 'CANARY_pinned',
      issuer: 'https://as.example',
    });
    expect((await h.sessions.connect('m')).state).toBe('needs-auth');
    expect(world.tokenRequests.other).toBe(0);
  });
});
