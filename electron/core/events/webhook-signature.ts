// Standard Webhooks signatures: `whsec_` secrets (base64 of 24–64 random bytes), `webhook-signature: v1,<base64
// HMAC-SHA256(secret, id + "." + timestamp + "." + raw body)>` (several space-separated during rotation), and a
// 5-minute freshness window on `webhook-timestamp`. The HMAC is always computed over the raw body bytes.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Prefix of a Standard Webhooks symmetric secret. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** Random bytes in a generated secret. */
export const WEBHOOK_SECRET_BYTES = 32;
/** Deliveries older or newer than this (seconds) are refused. */
export const WEBHOOK_TOLERANCE_SECS = 5 * 60;

/** A fresh `whsec_` secret from the CSPRNG. */
export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(WEBHOOK_SECRET_BYTES).toString('base64')}`;
}

/** The key bytes of a `whsec_` secret, or undefined when it is not one (wrong prefix, not base64, 24–64 bytes). */
export function secretKey(secret: string): Buffer | undefined {
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX)) return undefined;
  const b64 = secret.slice(WEBHOOK_SECRET_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0) return undefined;
  const key = Buffer.from(b64, 'base64');
  return key.length >= 24 && key.length <= 64 ? key : undefined;
}

/** The `v1,<base64>` signature of one delivery. */
export function signWebhook(secret: string, id: string, timestampSecs: number, body: string | Uint8Array): string {
  const key = secretKey(secret);
  if (!key) throw new Error('Not a whsec_ secret');
  const mac = createHmac('sha256', key)
    .update(`${id}.${timestampSecs}.`, 'utf8')
    .update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
    .digest('base64');
  return `v1,${mac}`;
}

/** The headers a delivery must carry, as received (names lower-cased by Node). */
export interface WebhookHeaders {
  /** `webhook-id`. */
  id: string | undefined;
  /** `webhook-timestamp` (Unix seconds). */
  timestamp: string | undefined;
  /** `webhook-signature` (space-separated `v1,<base64>` entries). */
  signature: string | undefined;
}

/** Outcome of verifying one delivery. */
export type WebhookVerdict = { ok: true } | { ok: false; reason: string };

/** Verifies a delivery's signature and freshness against `secret`; `now` in ms (tests). */
export function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  body: string | Uint8Array,
  now: number = Date.now(),
  toleranceSecs = WEBHOOK_TOLERANCE_SECS,
): WebhookVerdict {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature) return { ok: false, reason: 'missing webhook-id, webhook-timestamp or webhook-signature' };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'webhook-timestamp is not a Unix time' };
  const ts = Number(timestamp);
  if (Math.abs(now / 1000 - ts) > toleranceSecs) return { ok: false, reason: 'webhook-timestamp is outside the 5-minute window' };
  if (!secretKey(secret)) return { ok: false, reason: 'the stored secret is not a whsec_ secret' };
  const expected = Buffer.from(signWebhook(secret, id, ts, body).slice(3), 'base64');
  for (const part of signature.split(' ')) {
    const comma = part.indexOf(',');
    if (comma < 0 || part.slice(0, comma) !== 'v1') continue;
    const given = Buffer.from(part.slice(comma + 1), 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return { ok: true };
  }
  return { ok: false, reason: 'no signature matches' };
}
