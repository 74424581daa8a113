// Checks every headless request passes before any handler runs: Host and Origin (the core's loopback guards), then
// the launch token.
import { timingSafeEqual } from 'node:crypto';
import { hostAllowed, originAllowed } from '../core/net/loopback-guards.js';

/** Why a request was refused. */
export type Refusal = 'bad_host' | 'bad_origin' | 'bad_token';

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
  headers: { host?: string | undefined; origin?: string | undefined },
  token: string | null,
  port: number,
  expectedToken: string,
): Refusal | null {
  if (!hostAllowed(headers.host, port)) return 'bad_host';
  if (!originAllowed(headers.origin, port)) return 'bad_origin';
  if (!tokenMatches(token, expectedToken)) return 'bad_token';
  return null;
}
