// DPoP (RFC 9449 / SEP-1932) in every grant, against the test authorization server and MCP server with DPoP
// required at both (proofs checked with `jose`, each with its own nonce that rotates every few proofs): client
// credentials, Cross-App Access, device code and authorization code get tokens bound to the server's stored key,
// present them only with the DPoP scheme and a proof per request, and refresh (or re-mint) them with the same key,
// also after a restart. Signing out and removing the server delete the key from the credential store.
import { afterEach, describe, expect, it } from 'vitest';
import { AuthCredentials } from '../../../electron/core/auth/credentials.js';
import { dpopAccount, storedDpopThumbprint } from '../../../electron/core/auth/dpop.js';
import { createDispatcher } from '../../../electron/core/dispatcher.js';
import { createHandlers } from '../../../electron/core/handlers.js';
import { MemoryCredentialStore } from '../../../electron/platform/memory-credential-store.js';
import { startWorld, type World } from '../../fixtures/auth/oauth-world.js';
import { startTestIdp, type TestIdp } from '../../fixtures/auth/test-idp.js';
import { addHttpServer, makeAuthHost, until, type AuthHarness } from './helpers.js';

/** Each server's nonce changes after this many accepted proofs. */
const ROTATE = 3;

let world: World | undefined;
let h: AuthHarness | undefined;
let idp: TestIdp | undefined;
afterEach(async () => {
  await h?.cleanup();
  await world?.close();
  await idp?.close();
  h = undefined;
  world = undefined;
  idp = undefined;
});

/** Every request the MCP server accepted carried the DPoP scheme and a proof from `jkt` bound to its token. */
function expectBoundRequests(w: World, jkt: string): void {
  const rs = w.rsDpop!;
  expect(rs.accepted.length).toBeGreaterThan(ROTATE);
  expect(rs.accepted.every((p) => p.jkt === jkt && typeof p.ath === 'string')).toBe(true);
  expect(w.bearerSeen.filter((b) => b.startsWith('Bearer '))).toEqual([]);
  expect(w.bearerSeen.some((b) => b.startsWith('DPoP '))).toBe(true);
  // The first proof had no nonce; later ones followed the rotation.
  expect(rs.nonceRefusals).toBeGreaterThanOrEqual(1);
  expect(rs.rotations).toBeGreaterThanOrEqual(1);
  expect(new Set(rs.accepted.map((p) => p.nonce)).size).toBeGreaterThan(1);
}

async function machineServer(ttl: number): Promise<{ world: World; h: AuthHarness }> {
  world = await startWorld({
    accessTokenTtl: ttl,
    dpop: { rotateEvery: ROTATE },
    machineClient: { id: 'machine', secret: 'machine-secret', method: 'client_secret_basic' },
  });
  h = makeAuthHost();
  await addHttpServer(h.host, 'm', world.mcpUrl);
  await h.auth.setClient('m', { grant: 'client_credentials', clientId: 'machine', clientSecret: 'machine-secret', issuer: world.issuer });
  return { world, h };
}

describe('DPoP with client credentials', () => {
  it('gets a bound token, presents it with proofs through nonce rotation, and re-mints it with the same key', async () => {
    const { world, h } = await machineServer(2);
    const connected = await h.sessions.connect('m');
    expect(connected.state, h.logs.join(' | ')).toBe('connected');
    const jkt = await storedDpopThumbprint(h.credentials, 'm');
    expect(jkt).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const grant = await new AuthCredentials(h.credentials).grant('m', world.mcpUrl);
    expect(grant?.tokens.token_type).toBe('DPoP');
    // The token request needed the authorization server's nonce first, then was bound to the stored key.
    expect(world.as.dpop!.nonceRefusals).toBeGreaterThanOrEqual(1);
    expect(world.as.boundTo[0]).toBe(jkt);

    const client = await h.sessions.client('m');
    for (let i = 0; i < ROTATE + 2; i++) await client.listTools();
    expectBoundRequests(world, jkt!);
    expect((await h.auth.status('m')).dpop).toEqual({ thumbprint: jkt });

    // The token is minted again shortly before expiry (no refresh token for this grant), with the same key.
    // (A 2 s token is stale after 1 s, so a slow machine may re-mint during the calls above too.)
    const minted = world.tokenRequests.other;
    await new Promise((r) => setTimeout(r, 1200));
    await client.listTools();
    expect(world.tokenRequests.other).toBeGreaterThan(minted);
    expect(world.as.boundTo.length).toBe(world.tokenRequests.other);
    expect(new Set(world.as.boundTo)).toEqual(new Set([jkt]));
    expectBoundRequests(world, jkt!);
  });

  it('stays Bearer when the authorization server does not ask for DPoP', async () => {
    world = await startWorld({ machineClient: { id: 'machine', secret: 's3cret-value', method: 'client_secret_basic' } });
    h = makeAuthHost();
    await addHttpServer(h.host, 'm', world.mcpUrl);
    await h.auth.setClient('m', { grant: 'client_credentials', clientId: 'machine', clientSecret: 's3cret-value', issuer: world.issuer });
    expect((await h.sessions.connect('m')).state).toBe('connected');
    expect(world.bearerSeen.some((b) => b.startsWith('Bearer at_'))).toBe(true);
    expect(await h.credentials.get(dpopAccount('m'))).toBeNull();
    expect((await h.auth.status('m')).dpop).toBeUndefined();
  });
});

describe('DPoP with Cross-App Access', () => {
  it('binds the token from the ID-JAG grant to the stored key', async () => {
    const idToken = 'eyJhbGciOiJub25lIn0.e30.sig';
    const i = (idp = await startTestIdp({ idToken, clientId: 'idp-client' }));
    const ref: { world?: World } = {};
    world = await startWorld({
      dpop: { rotateEvery: ROTATE },
      jwtBearerClient: {
        id: 'xaa',
        secret: 'xaa-secret',
        acceptsJag: (jag) => ref.world !== undefined && i.issued(jag, ref.world.issuer, ref.world.mcpUrl),
      },
    });
    ref.world = world;
    h = makeAuthHost();
    await addHttpServer(h.host, 'x', world.mcpUrl);
    await h.auth.setClient('x', {
      grant: 'cross_app_access',
      clientId: 'xaa',
      clientSecret: 'xaa-secret',
      issuer: world.issuer,
      idpIssuer: idp.issuer,
      idpClientId: 'idp-client',
      idToken,
    });
    expect((await h.sessions.connect('x')).state, h.logs.join(' | ')).toBe('connected');
    const jkt = (await storedDpopThumbprint(h.credentials, 'x'))!;
    expect(world.as.boundTo).toEqual([jkt]);
    const client = await h.sessions.client('x');
    for (let n = 0; n < ROTATE + 1; n++) await client.listTools();
    expectBoundRequests(world, jkt);
    expect((await h.auth.status('x')).dpop).toEqual({ thumbprint: jkt });
  });
});

describe('DPoP with a device code', () => {
  it('polls with proofs, stores a bound grant and refreshes it with the same key', async () => {
    // A 5 s token is inside the refresh margin at once, so each use refreshes it: the refresh path runs for certain.
    world = await startWorld({ accessTokenTtl: 5, dpop: { rotateEvery: ROTATE }, device: { clientId: 'tv', interval: 1, expiresIn: 120 } });
    h = makeAuthHost();
    await addHttpServer(h.host, 'tv', world.mcpUrl);
    await h.auth.setClient('tv', { grant: 'device_code', clientId: 'tv' });
    const started = await h.auth.deviceStart('tv');
    await until(() => world!.as.devicePolls.length >= 2);
    world.as.decideDevice(started.device!.userCode, true);
    const done = await h.auth.deviceSettled('tv');
    expect(done.state, h.logs.join(' | ')).toBe('signed-in');
    await until(() => h!.sessions.status('tv').state === 'connected');
    const jkt = (await storedDpopThumbprint(h.credentials, 'tv'))!;
    expect(done.dpop).toEqual({ thumbprint: jkt });
    // Every poll went through the token endpoint's proof check (pending answers included).
    expect(world.as.dpop!.accepted.filter((p) => p.jkt === jkt).length).toBeGreaterThanOrEqual(world.as.devicePolls.length);

    const client = await h.sessions.client('tv');
    for (let i = 0; i < ROTATE + 1; i++) await client.listTools();
    expect(world.tokenRequests.refresh_token).toBeGreaterThanOrEqual(1);
    expect(world.as.boundTo.length).toBe(1 + world.tokenRequests.refresh_token);
    expect(new Set(world.as.boundTo)).toEqual(new Set([jkt]));
    expect(world.as.dpop!.rotations).toBeGreaterThanOrEqual(1);
    expectBoundRequests(world, jkt);
  });
});

describe('DPoP with the authorization code', () => {
  it('refreshes a bound grant with the same key; signing out deletes the key and the next sign-in gets a new one', async () => {
    world = await startWorld({ accessTokenTtl: 5, dpop: { rotateEvery: ROTATE } });
    h = makeAuthHost();
    await addHttpServer(h.host, 'p', world.mcpUrl);
    const w = world;
    h.opener.onOpen = async (url) => {
      await fetch(await w.consent(url));
    };
    await h.auth.begin('p');
    expect((await h.auth.settled('p')).state, h.logs.join(' | ')).toBe('signed-in');
    await until(() => h!.sessions.status('p').state === 'connected');
    const first = (await storedDpopThumbprint(h.credentials, 'p'))!;
    const client = await h.sessions.client('p');
    for (let i = 0; i < ROTATE + 1; i++) await client.listTools();
    expect(world.tokenRequests.refresh_token).toBeGreaterThanOrEqual(1);
    expect(new Set(world.as.boundTo)).toEqual(new Set([first]));
    expectBoundRequests(world, first);

    const out = await h.auth.signOut('p');
    expect(out.dpop).toBeUndefined();
    expect(await h.credentials.get(dpopAccount('p'))).toBeNull();

    await h.auth.begin('p');
    expect((await h.auth.settled('p')).state).toBe('signed-in');
    const second = await storedDpopThumbprint(h.credentials, 'p');
    expect(second).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second).not.toBe(first);
    expect(world.as.boundTo.at(-1)).toBe(second);
  });
});

describe('a bound grant after a restart', () => {
  it('is refreshed with the stored key; with another key the refresh is refused and the server asks for sign-in', async () => {
    world = await startWorld({ accessTokenTtl: 5, dpop: { rotateEvery: ROTATE } });
    const store = new MemoryCredentialStore();
    const w = world;
    const start = async (): Promise<AuthHarness> => {
      const harness = makeAuthHost({ credentials: store });
      harness.opener.onOpen = async (url) => {
        await fetch(await w.consent(url));
      };
      await addHttpServer(harness.host, 'p', w.mcpUrl);
      return harness;
    };
    h = await start();
    await h.auth.begin('p');
    expect((await h.auth.settled('p')).state, h.logs.join(' | ')).toBe('signed-in');
    const jkt = (await storedDpopThumbprint(store, 'p'))!;
    await h.cleanup();

    // The same credential store, a new core: the expired token is refreshed with the key it was bound to.
    h = await start();
    const refreshes = world.tokenRequests.refresh_token;
    expect((await h.sessions.connect('p')).state, h.logs.join(' | ')).toBe('connected');
    expect(world.tokenRequests.refresh_token).toBeGreaterThan(refreshes);
    expect(new Set(world.as.boundTo)).toEqual(new Set([jkt]));
    await h.cleanup();

    // The key is gone (a new one is made): the authorization server refuses the bound refresh token.
    await store.delete(dpopAccount('p'));
    h = await start();
    expect((await h.sessions.connect('p')).state).toBe('needs-auth');
    expect((await h.auth.status('p')).reason).toMatch(/no longer accepts the stored sign-in \(invalid_grant\)/);
    expect(await new AuthCredentials(store).grant('p', world.mcpUrl)).toBeUndefined();
  });
});

describe('the DPoP key when the server is removed', () => {
  it('is deleted from the credential store with the rest of its sign-in', async () => {
    const { h } = await machineServer(3600);
    expect((await h.sessions.connect('m')).state).toBe('connected');
    const raw = await h.credentials.get(dpopAccount('m'));
    expect(raw).not.toBeNull();
    const privateD = (JSON.parse(raw!) as { d: string }).d;
    const dispatch = createDispatcher(createHandlers(h.host));
    expect(await dispatch('servers.remove', { id: 'm', deleteCredentials: true })).toMatchObject({ ok: true });
    expect(await h.credentials.get(dpopAccount('m'))).toBeNull();
    const left = (await h.credentials.accounts?.()) ?? [];
    expect(left.filter((a) => a.includes(':m'))).toEqual([]);
    const values = await Promise.all(left.map((a) => h.credentials.get(a)));
    expect(values.some((v) => v?.includes(privateD) === true)).toBe(false);
  });
});
