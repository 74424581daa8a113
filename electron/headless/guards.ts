// Checks every headless request passes before any handler runs: Host, Origin and token.
import { timingSafeEqual } from 'node:crypto';

/** Why a request was refused. */
export type Refusal = 'bad_host' | 'bad_origin' | 'bad_token';

/** True when the Host header names this listener on 127.0.0.1 or localhost (DNS-rebinding guard). */
export function hostAllowed(hostHeader: string | undefined, port: number): boolean {
  if (hostHeader === undefined) return false;
  const value = hostHeader.toLowerCase();
  return value === `127.0.0.1:${port}` || value === `localhost:${port}`;
}

/** True when the Origin header is this listener's own origin. */
export function originAllowed(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return false;
  return origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`;
}

/** Constant-time comparison of a presented token with the launch token. */
export function tokenMatches(presented: string | null | undefined, expected: string): boolean {
  if (typeof presented !== 'string') return false;
  const a = Buffer.from(presented, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  if (a.length !== b.length) {
    timingSafeEqual(b, b);
    return false;
  }
  return timingSafeEqual(a, b);
}

/** Runs every bridge check; returns the first refusal or null when the request may proceed. */
export function checkBridgeRequest(
  headers: { host?: string; origin?: string },
  token: string | null,
  port: number,
  expectedToken: string,
): Refusal | null {
  if (!hostAllowed(headers.host, port)) return 'bad_host';
  if (!originAllowed(headers.origin, port)) return 'bad_origin';
  if (!tokenMatches(token, expectedToken)) return 'bad_token';
  return null;
}
