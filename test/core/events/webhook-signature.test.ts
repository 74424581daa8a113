// Standard Webhooks signatures: generation, verification over the raw body, rotation, freshness, bad secrets.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, secretKey, signWebhook, verifyWebhook } from '../../../electron/core/events/webhook-signature.js';

// The example from the Standard Webhooks specification's test vectors.
const SPEC_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const SPEC_ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const SPEC_TS = 1614265330;
const SPEC_BODY = '{"test": 2432232314}';
const SPEC_SIG = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';

describe('Standard Webhooks', () => {
  it('matches the specification test vector', () => {
    expect(signWebhook(SPEC_SECRET, SPEC_ID, SPEC_TS, SPEC_BODY)).toBe(SPEC_SIG);
    expect(verifyWebhook(SPEC_SECRET, { id: SPEC_ID, timestamp: String(SPEC_TS), signature: SPEC_SIG }, SPEC_BODY, SPEC_TS * 1000)).toEqual(
      { ok: true },
    );
  });

  it('generates whsec_ secrets of 32 random bytes', () => {
    const a = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secretKey(a)?.length).toBe(32);
    expect(generateWebhookSecret()).not.toBe(a);
  });

  it('refuses bad secrets: wrong prefix, not base64, too short or too long', () => {
    expect(secretKey('sk_abc')).toBeUndefined();
    expect(secretKey('whsec_***')).toBeUndefined();
    expect(secretKey(`whsec_${Buffer.alloc(16).toString('base64')}`)).toBeUndefined();
    expect(secretKey(`whsec_${Buffer.alloc(65).toString('base64')}`)).toBeUndefined();
  });

  it('verifies over the raw body bytes: a re-serialized body fails', () => {
    const secret = generateWebhookSecret();
    const now = Date.now();
    const ts = Math.floor(now / 1000);
    const body = '{"b": 1,  "a":2}';
    const sig = signWebhook(secret, 'evt_1', ts, body);
    expect(verifyWebhook(secret, { id: 'evt_1', timestamp: String(ts), signature: sig }, Buffer.from(body), now)).toEqual({ ok: true });
    expect(
      verifyWebhook(secret, { id: 'evt_1', timestamp: String(ts), signature: sig }, JSON.stringify(JSON.parse(body)), now),
    ).toMatchObject({ ok: false });
    expect(verifyWebhook(secret, { id: 'evt_2', timestamp: String(ts), signature: sig }, body, now)).toMatchObject({ ok: false });
  });

  it('accepts any of several signatures (rotation) and ignores other schemes', () => {
    const secret = generateWebhookSecret();
    const ts = Math.floor(Date.now() / 1000);
    const good = signWebhook(secret, 'e', ts, 'x');
    const other = signWebhook(generateWebhookSecret(), 'e', ts, 'x');
    expect(verifyWebhook(secret, { id: 'e', timestamp: String(ts), signature: `${other} v1a,AAAA ${good}` }, 'x')).toEqual({ ok: true });
    expect(verifyWebhook(secret, { id: 'e', timestamp: String(ts), signature: `${other} v2,${good.slice(3)}` }, 'x')).toMatchObject({
      ok: false,
    });
  });

  it('refuses a timestamp outside the 5-minute window, in either direction, and a non-numeric one', () => {
    const secret = generateWebhookSecret();
    const now = Date.now();
    for (const ts of [Math.floor(now / 1000) - 301, Math.floor(now / 1000) + 301]) {
      const sig = signWebhook(secret, 'e', ts, 'x');
      expect(verifyWebhook(secret, { id: 'e', timestamp: String(ts), signature: sig }, 'x', now)).toEqual({
        ok: false,
        reason: 'webhook-timestamp is outside the 5-minute window',
      });
    }
    expect(verifyWebhook(secret, { id: 'e', timestamp: '1e9', signature: 'v1,x' }, 'x', now)).toMatchObject({ ok: false });
  });

  it('is an HMAC-SHA256 keyed with the decoded secret bytes', () => {
    const secret = generateWebhookSecret();
    const key = Buffer.from(secret.slice(6), 'base64');
    const mac = createHmac('sha256', key).update('id.5.body').digest('base64');
    expect(signWebhook(secret, 'id', 5, 'body')).toBe(`v1,${mac}`);
  });
});
