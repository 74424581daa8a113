// DPoP keys and proofs against a real authorization server (oidc-provider with features.dPoP, a nonce required):
// the token endpoint answers use_dpop_nonce first, the session retries with the nonce, and the token it issues is
// bound to the stored key's thumbprint. Resource-server proofs carry ath/htu/htm for the token and the request.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { accessTokenHash } from '@modelcontextprotocol/client';
import { decodeProtectedHeader, importJWK, jwtVerify, type JWK } from 'jose';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dpopAccount, DpopSessions, loadDpopKey } from '../../../electron/core/auth/dpop.js';
import { MemoryCredentialStore } from '../../../electron/platform/memory-credential-store.js';

let http: Server;
let issuer: string;
let provider: Provider;

beforeAll(async () => {
  http = createServer();
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
  issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'machine',
        client_secret: 'machine-secret',
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
      },
    ],
    features: {
      clientCredentials: { enabled: true },
      dPoP: { enabled: true, nonceSecret: randomBytes(32), requireNonce: () => true },
    },
  });
  const handle = provider.callback();
  http.on('request', (req, res) => {
    void Promise.resolve(handle(req, res)).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    });
  });
});

afterAll(async () => {
  await new Promise<void>((r) => http.close(() => r()));
});

async function tokenRequest(sessions: DpopSessions, id: string): Promise<Response> {
  const session = await sessions.session(id);
  const url = `${issuer}/token`;
  const proof = await session.buildProof({ htm: 'POST', htu: url });
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from('machine:machine-secret').toString('base64')}`,
      dpop: proof,
    },
    body: 'grant_type=client_credentials',
  });
  session.observeNonce(res, url);
  return res;
}

describe('DPoP', () => {
  it('keeps the private key only in the credential store and reuses it', async () => {
    const store = new MemoryCredentialStore();
    const a = await loadDpopKey(store, 's1');
    const raw = await store.get(dpopAccount('s1'));
    expect(raw).not.toBeNull();
    expect(JSON.parse(raw ?? '{}')).toMatchObject({ kty: 'EC', crv: 'P-256' });
    const b = await loadDpopKey(store, 's1');
    expect(b.thumbprint).toBe(a.thumbprint);
    expect(a.publicJwk).not.toHaveProperty('d');
    const other = await loadDpopKey(store, 's2');
    expect(other.thumbprint).not.toBe(a.thumbprint);
  });

  it('gets a DPoP-bound token after a use_dpop_nonce retry', async () => {
    const store = new MemoryCredentialStore();
    const sessions = new DpopSessions(store);
    const first = await tokenRequest(sessions, 'srv');
    expect(first.status).toBe(400);
    expect(((await first.json()) as { error: string }).error).toBe('use_dpop_nonce');
    const second = await tokenRequest(sessions, 'srv');
    const body = (await second.json()) as { access_token: string; token_type: string };
    expect(second.status).toBe(200);
    expect(body.token_type).toBe('DPoP');
    const session = await sessions.session('srv');
    const stored = await provider.ClientCredentials.find(body.access_token);
    expect(stored?.jkt).toBe(session.thumbprint);

    // A proof for the resource server: bound to the token (ath), the request (htu without query, htm).
    const rs = 'http://127.0.0.1:9/mcp?x=1';
    const proof = await session.buildProof({ htm: 'post', htu: rs, accessToken: body.access_token });
    const header = decodeProtectedHeader(proof);
    expect(header.typ).toBe('dpop+jwt');
    const key = await importJWK(header.jwk as JWK, 'ES256');
    const { payload } = await jwtVerify(proof, key, { typ: 'dpop+jwt' });
    expect(payload['htm']).toBe('POST');
    expect(payload['htu']).toBe('http://127.0.0.1:9/mcp');
    expect(payload['ath']).toBe(await accessTokenHash(body.access_token));
    expect(typeof payload['jti']).toBe('string');
  });
});
