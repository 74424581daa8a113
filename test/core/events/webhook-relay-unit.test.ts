// What a relay hands over is untrusted: a delivery is taken only in the relay convention's shape, with a base64
// body within the delivery limit, and only the headers the verifier needs are kept (nothing else reaches it).
import { describe, expect, it } from 'vitest';
import { MAX_WEBHOOK_BODY } from '../../../electron/core/events/webhook-types.js';
import { relayDelivery } from '../../../electron/core/events/webhook-relay.js';

const body = Buffer.from('{"eventId":"e1"}').toString('base64');

describe('relayDelivery', () => {
  it('keeps the signature headers (lower-cased) and the raw body bytes, and drops every other header', () => {
    const got = relayDelivery({
      id: 'd-1',
      headers: {
        'Webhook-Id': 'msg_1',
        'webhook-timestamp': '1',
        'webhook-signature': 'v1,x',
        'x-mcp-subscription-id': 's',
        cookie: 'no',
        'x-relay-endpoint': 'ep-1',
      },
      body,
    });
    expect(got).toEqual({
      id: 'd-1',
      delivery: {
        headers: { 'webhook-id': 'msg_1', 'webhook-timestamp': '1', 'webhook-signature': 'v1,x', 'x-mcp-subscription-id': 's' },
        body: Buffer.from('{"eventId":"e1"}'),
      },
    });
  });

  it('refuses what is not a delivery, a body that is not base64, and one over the limit (keeping the id to answer it)', () => {
    expect(relayDelivery('nope')).toEqual({ refused: 'not a delivery (id, headers, base64 body)' });
    expect(relayDelivery({ id: 'd-2', headers: {} })).toEqual({ id: 'd-2', refused: 'not a delivery (id, headers, base64 body)' });
    expect(relayDelivery({ id: 'd-3', headers: {}, body: '<html>' })).toEqual({ id: 'd-3', refused: 'the body is not base64' });
    const big = Buffer.alloc(MAX_WEBHOOK_BODY + 1, 1).toString('base64');
    expect(relayDelivery({ id: 'd-4', headers: {}, body: big })).toMatchObject({ id: 'd-4' });
    expect('refused' in relayDelivery({ id: 'd-4', headers: {}, body: big })).toBe(true);
    expect(relayDelivery({ id: 'x'.repeat(201), headers: {}, body })).toMatchObject({ refused: expect.any(String) });
  });
});
