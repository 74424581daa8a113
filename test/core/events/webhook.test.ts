// Webhook mode against the stdio events fixture, with a loopback receiver that hands deliveries to the events
// service (which verifies their Standard Webhooks signatures): subscribe, refresh before the granted expiry,
// deliveries stored, a forged or stale delivery refused, pause and remove unsubscribe at the server, and the
// `whsec_` secret kept in the credential store (never in the subscriptions file).
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { webhookSecretAccount } from '../../../electron/core/events/subscription-manager.js';
import { generateWebhookSecret, signWebhook } from '../../../electron/core/events/webhook-signature.js';
import { cleanup, tempDir } from '../../shared/support/harness.js';
import {
  addApproved,
  eventIds,
  eventsStdio,
  expectFixturesGone,
  makeEventsHost,
  stats,
  subscription,
  tool,
  untilAsync,
  untilEvents,
  untilState,
  type EventsHarness,
} from './helpers.js';

let dir: string;
let h: EventsHarness | undefined;
let receiver: Server | undefined;
let replies: { status: number; reason?: string }[] = [];

/** A loopback receiver: raw body in, the events service's verdict out. */
async function startReceiver(harness: EventsHarness): Promise<string> {
  replies = [];
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= 1024 * 1024) chunks.push(c);
    });
    req.on('end', () => {
      void harness.host.mcpEvents.ingestWebhook({ headers: req.headers, body: Buffer.concat(chunks) }).then((reply) => {
        replies.push({ status: reply.status, ...(reply.reason ? { reason: reply.reason } : {}) });
        res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body ?? {}));
      });
    });
  });
  await new Promise<void>((resolve) => receiver?.listen(0, '127.0.0.1', resolve));
  const address = receiver.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}/hooks/switchboard`;
}

beforeEach(() => {
  dir = tempDir('sb-events-webhook-');
});

afterEach(async () => {
  await h?.host.shutdown();
  h = undefined;
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  receiver = undefined;
  cleanup(dir);
  await expectFixturesGone();
});

async function post(url: string, headers: Record<string, string>, body: string): Promise<number> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  await res.arrayBuffer();
  return res.status;
}

it('subscribes, refreshes before the granted expiry, stores verified deliveries, refuses forged ones, unsubscribes on pause and remove', async () => {
  h = makeEventsHost(dir);
  const { host, credentials } = h;
  const url = await startReceiver(h);
  // The fixture grants at most 4 s, so refreshes come about every second.
  await addApproved(
    host,
    eventsStdio('ev', { lifecycle: 'discover' }, { EVENTS_FIXTURE_ALLOW_HTTP: '1', EVENTS_FIXTURE_MAX_TTL_MS: '4000' }),
  );
  await host.sessions.connect('ev');
  const sub = await host.mcpEvents.subscribe({ id: 'ev', name: 'tick.all', arguments: {}, mode: 'webhook', webhookUrl: url });
  expect(sub.webhookUrl).toBe(url);
  const registered = await untilState(host, sub.id, 'registered');
  expect(registered.status.refreshAt).toBeGreaterThan(Date.now() - 1000);

  // The secret is in the credential store only.
  const secret = await credentials.get(webhookSecretAccount(sub.id));
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
  expect(readFileSync(join(dir, 'events', 'subscriptions.json'), 'utf8')).not.toContain(secret ?? 'whsec_');

  await untilAsync(async () => (await stats(host, 'ev')).refreshes >= 2, 15_000, 'two refreshes');
  const s = await stats(host, 'ev');
  expect(s.subscribes).toBe(1);
  expect(s.hooks).toHaveLength(1);
  expect(s.hooks[0]?.url).toBe(url);

  await tool(host, 'ev', 'emit', { name: 'tick.all', count: 3 });
  expect(await untilEvents(host, sub.id, 3)).toEqual(['evt-1', 'evt-2', 'evt-3']);
  await untilAsync(async () => (await stats(host, 'ev')).deliveries.length >= 3, 10_000, 'three deliveries');
  expect((await stats(host, 'ev')).deliveries.map((d) => d.status)).toEqual([200, 200, 200]);
  expect(subscription(host, sub.id).status.received).toBe(3);

  // A forged delivery (signed with another secret), a stale one and an unsigned one are refused and not stored.
  const hookId = s.hooks[0]?.id ?? '';
  const body = JSON.stringify({ eventId: 'forged-1', name: 'tick.all', timestamp: new Date().toISOString(), data: { evil: true } });
  const now = Math.floor(Date.now() / 1000);
  const forged = signWebhook(generateWebhookSecret(), 'forged-1', now, body);
  expect(
    await post(
      url,
      { 'webhook-id': 'forged-1', 'webhook-timestamp': String(now), 'webhook-signature': forged, 'x-mcp-subscription-id': hookId },
      body,
    ),
  ).toBe(401);
  const stale = signWebhook(secret ?? '', 'forged-1', now - 3600, body);
  expect(
    await post(
      url,
      { 'webhook-id': 'forged-1', 'webhook-timestamp': String(now - 3600), 'webhook-signature': stale, 'x-mcp-subscription-id': hookId },
      body,
    ),
  ).toBe(401);
  expect(await post(url, { 'x-mcp-subscription-id': hookId }, body)).toBe(401);
  expect(replies.filter((r) => r.status === 401).map((r) => r.reason)).toEqual([
    'signature refused: no signature matches',
    'signature refused: webhook-timestamp is outside the 5-minute window',
    'signature refused: missing webhook-id, webhook-timestamp or webhook-signature',
  ]);
  // A correctly signed one for an id nobody registered gets a retryable answer.
  const good = signWebhook(secret ?? '', 'x-1', now, body);
  expect(
    await post(
      url,
      { 'webhook-id': 'x-1', 'webhook-timestamp': String(now), 'webhook-signature': good, 'x-mcp-subscription-id': 'sub_unknown' },
      body,
    ),
  ).toBe(503);
  expect(eventIds(host, sub.id)).toEqual(['evt-1', 'evt-2', 'evt-3']);

  // Pause unsubscribes at the server; resume registers again.
  await host.mcpEvents.pause(sub.id);
  await untilAsync(async () => (await stats(host, 'ev')).hooks.length === 0, 10_000, 'the registration to go');
  expect((await stats(host, 'ev')).unsubscribes).toBe(1);
  await host.mcpEvents.resume(sub.id);
  await untilState(host, sub.id, 'registered');
  await untilAsync(async () => (await stats(host, 'ev')).hooks.length === 1, 10_000, 'the registration again');

  // Remove: unsubscribed, the secret deleted.
  await host.mcpEvents.remove(sub.id);
  const after = await stats(host, 'ev');
  expect(after.hooks).toEqual([]);
  expect(after.unsubscribes).toBe(2);
  expect(await credentials.get(webhookSecretAccount(sub.id))).toBeNull();
  expect(host.mcpEvents.subscriptions()).toEqual([]);
}, 60_000);

it('refuses a webhook URL that is not https (plain http only on loopback) and a mode the type does not offer', async () => {
  h = makeEventsHost(dir);
  const { host } = h;
  await addApproved(host, eventsStdio('ev', { lifecycle: 'discover' }));
  await host.sessions.connect('ev');
  await expect(
    host.mcpEvents.subscribe({ id: 'ev', name: 'tick.all', arguments: {}, mode: 'webhook', webhookUrl: 'http://relay.example.com/hook' }),
  ).rejects.toMatchObject({
    code: 'invalid_request',
    message: expect.stringMatching(/^Webhook callback URL refused: Plain http is only allowed/),
  });
  await expect(
    host.mcpEvents.subscribe({ id: 'ev', name: 'tick.all', arguments: {}, mode: 'webhook', webhookUrl: 'ftp://x/y' }),
  ).rejects.toMatchObject({
    code: 'invalid_request',
  });
  await expect(host.mcpEvents.subscribe({ id: 'ev', name: 'tick.poll', arguments: {}, mode: 'push' })).rejects.toMatchObject({
    code: 'invalid_request',
    message: 'The server does not offer push delivery for tick.poll (it offers poll)',
  });
  await stats(host, 'ev');
});
