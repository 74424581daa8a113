// A per-server DPoP signing identity (RFC 9449 / SEP-1932). The ES256 private key lives only in the credential
// store (as a JWK), so a bound token stays usable across restarts; settings, logs and the renderer never see it.
// The SDK's DpopSession signs the proofs and keeps the per-origin nonces; the key is imported non-extractable.
// No request-body binding: the current SEP-1932 draft (revised 2026-06-23) adopts RFC 9449 "without introducing
// MCP-specific claims, request body digests, or additional proof material"; the earlier draft's `content_digest`
// claim was dropped, so proofs carry htm/htu/iat/jti (+ ath, nonce) only, as RFC 9449 defines.
import type { webcrypto } from 'node:crypto';
import { DpopSession, type DpopKeyPair, type OAuthClientProvider, type OAuthDiscoveryState } from '@modelcontextprotocol/client';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import type { CredentialStore } from '../ports.js';

/** Credential-store account holding a server's DPoP private key. */
export function dpopAccount(serverId: string): string {
  return `auth:dpop:${serverId}`;
}

const ALG = 'ES256';

function isPrivateEcJwk(v: unknown): v is JWK & { d: string; x: string; y: string } {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    o['kty'] === 'EC' && o['crv'] === 'P-256' && typeof o['d'] === 'string' && typeof o['x'] === 'string' && typeof o['y'] === 'string'
  );
}

async function keyPairFrom(privateJwk: JWK & { x: string; y: string }): Promise<DpopKeyPair> {
  const publicJwk: JWK = { kty: 'EC', crv: 'P-256', x: privateJwk.x, y: privateJwk.y };
  const privateKey = (await importJWK({ ...privateJwk, ext: false }, ALG)) as webcrypto.CryptoKey;
  const publicKey = (await importJWK(publicJwk, ALG)) as webcrypto.CryptoKey;
  return { privateKey, publicKey, publicJwk, thumbprint: await calculateJwkThumbprint(publicJwk), alg: ALG };
}

async function storedJwk(store: CredentialStore, serverId: string): Promise<(JWK & { x: string; y: string }) | undefined> {
  const raw = await store.get(dpopAccount(serverId));
  if (raw === null) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return undefined;
  }
  return isPrivateEcJwk(parsed) ? parsed : undefined;
}

/** The RFC 7638 thumbprint of the server's stored public key, without creating one; undefined when there is none. */
export async function storedDpopThumbprint(store: CredentialStore, serverId: string): Promise<string | undefined> {
  const jwk = await storedJwk(store, serverId);
  return jwk === undefined ? undefined : calculateJwkThumbprint({ kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y });
}

/** Whether authorization server metadata lists an algorithm we sign DPoP proofs with (ES256). */
export function advertisesDpop(metadata: unknown): boolean {
  if (typeof metadata !== 'object' || metadata === null) return false;
  const algs = (metadata as { dpop_signing_alg_values_supported?: unknown }).dpop_signing_alg_values_supported;
  return Array.isArray(algs) && algs.includes(ALG);
}

/**
 * Makes an SDK provider without a browser leg (client credentials, Cross-App Access) sign its token requests with
 * the server's key when the authorization server it discovers advertises DPoP; otherwise it stays Bearer.
 */
export function withDpopTokenRequests<P extends OAuthClientProvider>(provider: P, session: () => Promise<DpopSession>): P {
  let metadata: unknown;
  provider.saveDiscoveryState = (state: OAuthDiscoveryState): void => {
    metadata = state.authorizationServerMetadata;
  };
  provider.dpop = () => (advertisesDpop(metadata) ? session() : undefined);
  return provider;
}

/** Reads the server's key from the store, or creates and stores one; a malformed stored key is replaced. */
export async function loadDpopKey(store: CredentialStore, serverId: string): Promise<DpopKeyPair> {
  const existing = await storedJwk(store, serverId);
  if (existing !== undefined) return keyPairFrom(existing);
  const { privateKey } = await generateKeyPair(ALG, { extractable: true });
  const jwk = await exportJWK(privateKey);
  if (!isPrivateEcJwk(jwk)) throw new Error('The DPoP key could not be exported');
  const stored: JWK = { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, d: jwk.d };
  await store.set(dpopAccount(serverId), JSON.stringify(stored));
  return keyPairFrom(jwk);
}

/** One DpopSession per server for the life of the process, so the nonces it learned are reused. */
export class DpopSessions {
  readonly #store: CredentialStore;
  readonly #sessions = new Map<string, Promise<DpopSession>>();

  constructor(store: CredentialStore) {
    this.#store = store;
  }

  /** The server's session (its stored key, created on first use). */
  session(serverId: string): Promise<DpopSession> {
    let s = this.#sessions.get(serverId);
    if (s === undefined) {
      s = loadDpopKey(this.#store, serverId).then((keyPair) => DpopSession.create({ keyPair }));
      // A failed load is not cached: the next request tries again.
      s.catch(() => this.#sessions.delete(serverId));
      this.#sessions.set(serverId, s);
    }
    return s;
  }

  /** Forgets the server's key (with its grant, when the server is removed or signed out). */
  async forget(serverId: string): Promise<void> {
    this.#sessions.delete(serverId);
    await this.#store.delete(dpopAccount(serverId));
  }
}
