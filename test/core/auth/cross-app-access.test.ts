// Cross-App Access (SEP-990, enterprise-managed authorization) against a real IdP and authorization server on
// 127.0.0.1: the user's ID token is exchanged at the IdP (RFC 8693) for an ID-JAG bound to this server's
// authorization server and resource, which the authorization server accepts as an RFC 7523 JWT bearer grant.
// No browser opens; a refused ID token ends in needs-auth with the reason; no secret reaches status or logs.
import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type World } from '../../fixtures/auth/oauth-world.js';
import { startTestIdp, type TestIdp } from '../../fixtures/auth/test-idp.js';
import { addHttpServer, makeAuthHost, type AuthHarness } from './helpers.js';

const ID_TOKEN = 'eyJhbGciOiJub25lIn0.CANARY_idtoken.sig';

let world: World | undefined;
let idp: TestIdp | undefined;
let h: AuthHarness | undefined;
afterEach(async () => {
  await h?.cleanup();
  await world?.close();
  await idp?.close();
  h = undefined;
  world = undefined;
  idp = undefined;
});

async function setUp(): Promise<{ world: World; idp: TestIdp; h: AuthHarness }> {
  idp = await startTestIdp({ idToken: ID_TOKEN, clientId: 'idp-client' });
  const i = idp;
  const ref: { world?: World } = {};
  world = await startWorld({
    jwtBearerClient: {
      id: 'xaa-client',
      secret: 'CANARY_xaasecret',
      acceptsJag: (jag) => ref.world !== undefined && i.issued(jag, ref.world.issuer, ref.world.mcpUrl),
    },
  });
  ref.world = world;
  h = makeAuthHost();
  await addHttpServer(h.host, 'x', world.mcpUrl);
  return { world, idp, h };
}

describe('Cross-App Access', () => {
  it('exchanges the ID token for an ID-JAG bound to this server and connects without a browser', async () => {
    const { world, idp, h } = await setUp();
    const status = await h.auth.setClient('x', {
      grant: 'cross_app_access',
      clientId: 'xaa-client',
      clientSecret: 'CANARY_xaasecret',
      issuer: world.issuer,
      idpIssuer: idp.issuer,
      idpClientId: 'idp-client',
      idToken: ID_TOKEN,
    });
    expect(status.kind).toBe('cross_app_access');
    expect(status.client).toMatchObject({ grant: 'cross_app_access', idpIssuer: idp.issuer, hasIdToken: true, hasSecret: true });
    const connected = await h.sessions.connect('x');
    expect(connected.state, `${JSON.stringify(await h.auth.status('x'))} ${h.logs.join(' | ')}`).toBe('connected');
    expect(idp.exchanges).toHaveLength(1);
    expect(idp.exchanges[0]).toMatchObject({ audience: world.issuer, resource: world.mcpUrl, accepted: true });
    expect(world.tokenRequests.other).toBe(1);
    await (await h.sessions.client('x')).listTools();
    expect(h.opener.opened).toEqual([]);
    const seen = JSON.stringify(await h.auth.status('x')) + h.logs.join('\n');
    expect(seen).not.toContain('CANARY_');
    // Saving the settings again without the secrets keeps the stored ones (the renderer never has them).
    await h.auth.setClient('x', {
      grant: 'cross_app_access',
      clientId: 'xaa-client',
      issuer: world.issuer,
      idpIssuer: idp.issuer,
      idpClientId: 'idp-client',
    });
    expect((await h.auth.status('x')).client).toMatchObject({ hasIdToken: true, hasSecret: true });
  });

  it('an ID token the IdP refuses ends in needs-auth with the reason, and never opens a browser', async () => {
    const { world, idp, h } = await setUp();
    await h.auth.setClient('x', {
      grant: 'cross_app_access',
      clientId: 'xaa-client',
      clientSecret: 'CANARY_xaasecret',
      issuer: world.issuer,
      idpIssuer: idp.issuer,
      idpClientId: 'idp-client',
      idToken: 'eyJhbGciOiJub25lIn0.CANARY_expired.sig',
    });
    expect((await h.sessions.connect('x')).state).toBe('needs-auth');
    const status = await h.auth.status('x');
    expect(status.reason).toMatch(/The Cross-App Access token was refused: The identity provider http:\/\/127\.0\.0\.1:\d+ refused/);
    expect(world.tokenRequests.other).toBe(0);
    // A user action that needs authorization reports the refusal instead of starting a browser sign-in.
    await expect(h.auth.runAuthorized('x', () => h.sessions.client('x').then((c) => c.listTools()))).rejects.toThrow(/refused/);
    expect(h.opener.opened).toEqual([]);
    expect(JSON.stringify(status) + h.logs.join('\n')).not.toContain('CANARY_');
  });

  it('refuses an identity provider over plain http to another host', async () => {
    const { world, h } = await setUp();
    await expect(
      h.auth.setClient('x', {
        grant: 'cross_app_access',
        clientId: 'xaa-client',
        issuer: world.issuer,
        idpIssuer: 'http://idp.example',
        idpClientId: 'idp-client',
        idToken: ID_TOKEN,
      }),
    ).rejects.toMatchObject({ code: 'url_refused', message: expect.stringMatching(/^The identity provider issuer uses plain http/) });
    expect((await h.auth.status('x')).client).toBeUndefined();
  });
});
