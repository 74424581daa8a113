// Webhook delivery against a server of the newest sketch (events-webhook-v2.ts), through a loopback receiver that
// serves Switchboard's well-known receiver document and hands deliveries to the events service: verification by the
// document (no challenge) or, without it, by a challenge sent before the subscribe answer; `throttled` /
// `retryAfterMs` and `lastError` in the status; a paused subscription's deliveries refused with 410, which the
// server does not retry, while 5xx answers are retried a bounded number of times; and a callback URL the server
// cannot reach ends the subscription after a few tries with what to do instead.
import { createServer, type Server } from 'node:http';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Host } from '../../../electron/core/host.js';
import { MAX_CALLBACK_FAILURES } from '../../../electron/core/events/webhook-runner.js';
import { RECEIVER_DOCUMENT_PATH } from '../../../electron/core/events/webhook-receiver.js';
import { cleanup, tempDir } from '../../shared/support/harness.js';
import { fixture, stdioServer } from '../sessions/helpers.js';
import {
  addApproved,
  eventIds,
  expectFixturesGone,
  makeEventsHost,
  seenPids,
  subscription,
  tool,
  until,
  untilEvents,
  untilState,
  type EventsHarness,
} from './helpers.js';

const WEBHOOK_V2 = fixture('events-webhook-v2.ts');

interface V2Stats {
  subscribes: number;
  refreshes: number;
  unsubscribes: number;
  verifiedBy: string[];
  wellKnownFetches: number;
  challenges: number;
  attempts: { eventId: string; attempt: number; status: number }[];
  hooks: number;
  pid: number;
}

let dir: string;
let h: EventsHarness | undefined;
let receiver: Server | undefined;
const mode = { document: true, fail: false };

async function v2Stats(host: Host): Promise<V2Stats> {
  const s = await tool<V2Stats>(host, 'wh', 'stats');
  seenPids.add(s.pid);
  return s;
}

/** A loopback receiver: the well-known document (when on) and deliveries, answered by the events service. */
async function startReceiver(host: Host): Promise<string> {
  receiver = createServer((req, res) => {
    const origin = `http://${req.headers.host ?? ''}`;
    if (req.method === 'GET' && req.url === RECEIVER_DOCUMENT_PATH) {
      if (!mode.document) return void res.writeHead(404).end();
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(host.mcpEvents.webhookReceiverDocument(origin)));
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (mode.fail) return void res.writeHead(500).end();
      void host.mcpEvents.ingestWebhook({ headers: req.headers, body: Buffer.concat(chunks) }).then((reply) => {
        res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body ?? {}));
      });
    });
  });
  await new Promise<void>((resolve) => receiver?.listen(0, '127.0.0.1', resolve));
  const address = receiver.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}/hooks/switchboard`;
}

async function start(env: Record<string, string> = {}): Promise<Host> {
  h = makeEventsHost(dir, { tuning: { retryBaseMs: 50, retryMaxMs: 400 } });
  await addApproved(
    h.host,
    stdioServer(
      'wh',
      WEBHOOK_V2,
      { lifecycle: 'discover', timeouts: { probeSecs: 30, connectSecs: 60 } },
      { EVENTS_WH_MAX_TTL_MS: '3000', ...env },
    ),
  );
  expect(await h.host.sessions.connect('wh')).toMatchObject({ state: 'connected' });
  await v2Stats(h.host);
  return h.host;
}

beforeEach(() => {
  dir = tempDir('sb-events-webhook-v2-');
  mode.document = true;
  mode.fail = false;
});

afterEach(async () => {
  await h?.host.shutdown();
  h = undefined;
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  receiver = undefined;
  cleanup(dir);
  await expectFixturesGone();
});

it('verified by the well-known document; throttling and delivery errors show; 410 for a paused subscription is not retried, 5xx is, boundedly', async () => {
  const host = await start({ EVENTS_WH_IGNORE_UNSUBSCRIBE: '1' });
  const url = await startReceiver(host);
  const sub = await host.mcpEvents.subscribe({ id: 'wh', name: 'hook.tick', arguments: {}, mode: 'webhook', webhookUrl: url });
  await untilState(host, sub.id, 'registered');
  expect(host.mcpEvents.webhookReceiverDocument(new URL(url).origin)).toEqual({ receivers: ['/hooks/switchboard'] });
  expect(host.mcpEvents.webhookReceiverDocument('http://127.0.0.1:1')).toEqual({ receivers: [] });
  let s = await v2Stats(host);
  expect(s.verifiedBy).toEqual(['well-known']);
  expect(s.challenges).toBe(0);

  await tool(host, 'wh', 'emit', { count: 2 });
  expect(await untilEvents(host, sub.id, 2)).toEqual(['wh-1', 'wh-2']);

  await tool(host, 'wh', 'throttle', { on: true, retryAfterMs: 60_000 });
  await until(() => subscription(host, sub.id).status.throttled === true, 15_000, 'throttled');
  expect(subscription(host, sub.id).status.throttledUntil ?? 0).toBeGreaterThan(Date.now() + 30_000);
  await tool(host, 'wh', 'throttle', { on: false });
  await until(() => subscription(host, sub.id).status.throttled === undefined, 15_000, 'no longer throttled');
  expect(subscription(host, sub.id).status.throttledUntil).toBeUndefined();

  // Paused: the server (ignoring the unsubscribe) still delivers; the receiver answers 410 and it is not retried.
  await host.mcpEvents.pause(sub.id);
  expect(host.mcpEvents.webhookReceiverDocument(new URL(url).origin)).toEqual({ receivers: [] });
  await tool(host, 'wh', 'emit', { count: 1 });
  s = await v2Stats(host);
  expect(s.attempts.filter((a) => a.eventId === 'wh-3')).toEqual([{ eventId: 'wh-3', attempt: 1, status: 410 }]);
  expect(eventIds(host, sub.id)).toEqual(['wh-1', 'wh-2']);

  // A failing endpoint: retried three times, then given up; the next refresh shows the category.
  await host.mcpEvents.resume(sub.id);
  await untilState(host, sub.id, 'registered');
  mode.fail = true;
  await tool(host, 'wh', 'emit', { count: 1 });
  s = await v2Stats(host);
  expect(s.attempts.filter((a) => a.eventId === 'wh-4').map((a) => a.status)).toEqual([500, 500, 500]);
  await until(() => subscription(host, sub.id).status.deliveryError === 'http_5xx', 15_000, 'the delivery error');
  expect(s.attempts.filter((a) => a.status === 200).map((a) => a.eventId)).toEqual(['wh-1', 'wh-2']);
}, 90_000);

it('without the document, the challenge the server sends before its subscribe answer is echoed', async () => {
  const host = await start();
  mode.document = false;
  const url = await startReceiver(host);
  const sub = await host.mcpEvents.subscribe({ id: 'wh', name: 'hook.tick', arguments: {}, mode: 'webhook', webhookUrl: url });
  await untilState(host, sub.id, 'registered');
  const s = await v2Stats(host);
  expect(s.verifiedBy).toEqual(['challenge']);
  expect(s.wellKnownFetches).toBe(1);
  await tool(host, 'wh', 'emit', { count: 1 });
  expect(await untilEvents(host, sub.id, 1)).toEqual(['wh-1']);
}, 60_000);

it('a callback URL the server cannot reach ends the subscription after a few tries, saying what to do', async () => {
  const host = await start();
  // A port nothing listens on: bind one and close it.
  const spare = createServer();
  await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
  const address = spare.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  await new Promise<void>((resolve) => spare.close(() => resolve()));
  const sub = await host.mcpEvents.subscribe({
    id: 'wh',
    name: 'hook.tick',
    arguments: {},
    mode: 'webhook',
    webhookUrl: `http://127.0.0.1:${address.port}/hooks/switchboard`,
  });
  const ended = await untilState(host, sub.id, 'ended', 30_000);
  expect(ended.status.reason).toContain(`${MAX_CALLBACK_FAILURES} times in a row`);
  expect(ended.status.reason).toContain('use the URL of a relay');
  expect((await v2Stats(host)).challenges).toBe(MAX_CALLBACK_FAILURES);
}, 60_000);
