// Gateway client tokens. A client token is `sbg_<client id>_<256 random bits>`; the credential store keeps only
// its SHA-256 digest, so nothing stored can be replayed as a token (a 256-bit random secret needs no slow hash).
// The stdio entry point authenticates with a per-launch token instead: `sbl_<client id>_<HMAC(launch key, id)>`,
// derived from the launch key in the 0600 endpoint file, so no long-lived token is ever written to disk.
// Every comparison is constant-time, and an unknown client id still costs one comparison.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const CLIENT_TOKEN = /^sbg_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;
const LAUNCH_TOKEN = /^sbl_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;
const DUMMY = Buffer.alloc(32);

/** A new client id: 16 hex characters (not secret). */
export function newClientId(): string {
  return randomBytes(8).toString('hex');
}

/** A new client token for `id`. */
export function newClientToken(id: string): string {
  return `sbg_${id}_${randomBytes(32).toString('base64url')}`;
}

/** A new per-launch key (base64url, 256 bits). */
export function newLaunchKey(): string {
  return randomBytes(32).toString('base64url');
}

/** The credential-store account of a client's token digest. */
export function tokenAccount(id: string): string {
  return `gateway-client:${id}`;
}

/** The digest the credential store keeps for a token (hex SHA-256). */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The stdio entry point's token for `id` under a launch key. */
export function launchToken(key: string, id: string): string {
  return `sbl_${id}_${createHmac('sha256', key).update(id, 'utf8').digest('base64url')}`;
}

/** The client id a presented bearer names and whether it is a launch token; undefined when it has neither shape. */
export function parseBearer(token: string): { id: string; launch: boolean } | undefined {
  const client = CLIENT_TOKEN.exec(token);
  if (client) return { id: client[1]!, launch: false };
  const launch = LAUNCH_TOKEN.exec(token);
  return launch ? { id: launch[1]!, launch: true } : undefined;
}

/** Constant-time equality of two hex SHA-256 digests (or of the digest and a dummy when `stored` is missing). */
export function digestMatches(presentedDigest: string, stored: string | undefined): boolean {
  const a = Buffer.from(presentedDigest, 'hex');
  const b = stored !== undefined && /^[0-9a-f]{64}$/.test(stored) ? Buffer.from(stored, 'hex') : undefined;
  if (a.length !== 32) return false;
  return timingSafeEqual(a, b ?? DUMMY) && b !== undefined;
}

/** Constant-time check of a presented launch token against the launch key. */
export function launchTokenMatches(presented: string, key: string | undefined, id: string): boolean {
  const expected = Buffer.from(launchToken(key ?? 'no-launch-key', id), 'utf8');
  const given = Buffer.from(presented, 'utf8');
  if (given.length !== expected.length) {
    timingSafeEqual(expected, expected);
    return false;
  }
  return timingSafeEqual(given, expected) && key !== undefined;
}

/** The bearer token of an `Authorization` header value, or undefined. */
export function bearerOf(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const m = /^Bearer ([^\s]{1,200})$/i.exec(header.trim());
  return m ? m[1] : undefined;
}
