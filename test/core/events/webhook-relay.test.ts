// Webhook delivery through a relay, end to end with real processes: the newest-sketch webhook server
// (events-webhook-v2.ts) POSTs to an endpoint of a relay MCP server (webhook-relay.ts, listening on 127.0.0.1 only),
// Switchboard takes the held deliveries through the relay's tools, verifies each signature with the subscription's
// secret, stores the events in the feed, and its answer (the challenge echo, 200, 401 for a forgery) is what the
// sender gets. Switchboard itself opens no listener.
import { createHash } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Host } from '../../../electron/core/host.js';
import { signWebhook } from '../../../electron/core/events/webhook-signature.js';
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
  untilAsync,
  untilEvents,
  untilState,
  type EventsHarness,
} from './helpers.js';

const WEBHOOK_V2 = fixture('events-webhook-v2.ts');
const RELAY = fixture('webhook-relay.ts');

interface RelayStats {
  posts: number;
  taken: number;
  answers: { status: number; type?: string }[];
  unanswered: number;
  wellKnownFetches: number;
  port: number;
  endpoints: string[];
  held: number;
  pid: number;
}

let dir: string;
let h: EventsHarness | undefined;

const timeouts = { lifecycle: 'discover' as const, timeouts: { probeSecs: 30, connectSecs: 60 } };

async function relayStats(host: Host): Promise<RelayStats> {
  const s = await tool<RelayStats>(host, 'relay', 'stats');
  seenPids.add(s.pid);
  return s;
}

async function start(relayEnv: Record<string, string> = {}, serverEnv: Record<string, string> = {}): Promise<Host> {
  h = makeEventsHost(dir, { tuning: { retryBaseMs: 50, retryMaxMs: 400 } });
  await addApproved(h.host, stdioServer('wh', WEBHOOK_V2, timeouts, { EVENTS_WH_MAX_TTL_MS: '3000', ...serverEnv }));
  await addApproved(h.host, stdioServer('relay', RELAY, timeouts, relayEnv));
  expect(await h.host.sessions.connect('wh')).toMatchObject({ state: 'connected' });
  expect(await h.host.sessions.connect('relay')).toMatchObject({ state: 'connected' });
  seenPids.add((await tool<{ pid: number }>(h.host, 'wh', 'stats')).pid);
  await relayStats(h.host);
  return h.host;
}

beforeEach(() => {
  dir = tempDir('sb-events-relay-');
});

afterEach(async () => {
  await h?.host.shutdown();
  h = undefined;
  cleanup(dir);
  await expectFixturesGone();
});

it('a webhook through a relay: the challenge is relayed and echoed, events are verified into the feed, a forgery gets 401, a paused one 410', async () => {
  // The server keeps delivering after events/unsubscribe, to see what a paused subscription's deliveries are told.
  const host = await start({}, { EVENTS_WH_IGNORE_UNSUBSCRIBE: '1' });
  const sub = await host.mcpEvents.subscribe({ id: 'wh', name: 'hook.tick', arguments: {}, mode: 'webhook', relayServerId: 'relay' });
  expect(sub.relayServerId).toBe('relay');
  const url = new URL(sub.webhookUrl ?? '');
  // The callback URL is the relay's endpoint, on loopback here (a tunnel or a hosted relay gives a public one).
  expect(url.hostname).toBe('127.0.0.1');
  expect(url.pathname).toMatch(/^\/hooks\/ep-[0-9a-f]{12}$/);
  await untilState(host, sub.id, 'registered');
  expect(host.mcpEvents.relaysRead()).toEqual(['relay']);
  const wh = await tool<{ verifiedBy: string[] }>(host, 'wh', 'stats');
  expect(wh.verifiedBy).toEqual(['challenge']);
  let r = await relayStats(host);
  expect(r.answers[0]).toEqual({ status: 200, type: 'verification' });

  await tool(host, 'wh', 'emit', { count: 3 });
  expect(await untilEvents(host, sub.id, 3)).toEqual(['wh-1', 'wh-2', 'wh-3']);
  r = await relayStats(host);
  expect(r.answers.filter((a) => a.type === 'event').map((a) => a.status)).toEqual([200, 200, 200]);

  // Someone who knows the endpoint but not the secret: refused with 401, nothing stored.
  const registration = subscription(host, sub.id);
  expect(registration.status.state).toBe('registered');
  const subId = `sub_${createHash('sha256').update(url.href).digest('hex').slice(0, 16)}`;
  const body = JSON.stringify({ eventId: 'forged-1', name: 'hook.tick', timestamp: new Date().toISOString(), data: { n: 99 } });
  const ts = Math.floor(Date.now() / 1000);
  const wrongSecret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': 'msg_forged',
      'webhook-timestamp': String(ts),
      'webhook-signature': signWebhook(wrongSecret, 'msg_forged', ts, body),
      'x-mcp-subscription-id': subId,
    },
    body,
  });
  expect(res.status).toBe(401);
  expect(eventIds(host, sub.id)).toEqual(['wh-1', 'wh-2', 'wh-3']);

  // Paused: the relay is still read, and a delivery is answered 410 (stop), which the server does not retry.
  await host.mcpEvents.pause(sub.id);
  expect(host.mcpEvents.relaysRead()).toEqual(['relay']);
  await tool(host, 'wh', 'emit', { count: 1 });
  const attempts = (await tool<{ attempts: { eventId: string; attempt: number; status: number }[] }>(host, 'wh', 'stats')).attempts;
  expect(attempts.filter((a) => a.eventId === 'wh-4')).toEqual([{ eventId: 'wh-4', attempt: 1, status: 410 }]);
  expect(eventIds(host, sub.id)).toEqual(['wh-1', 'wh-2', 'wh-3']);

  // Removing the subscription stops reading the relay.
  await host.mcpEvents.remove(sub.id);
  await until(() => host.mcpEvents.relaysRead().length === 0, 10_000, 'the relay reader to stop');
}, 90_000);

it('a relay that serves the well-known receiver document for its endpoints: the server takes it, no challenge', async () => {
  const host = await start({ RELAY_WELL_KNOWN: '1' });
  const sub = await host.mcpEvents.subscribe({ id: 'wh', name: 'hook.tick', arguments: {}, mode: 'webhook', relayServerId: 'relay' });
  await untilState(host, sub.id, 'registered');
  expect((await tool<{ verifiedBy: string[] }>(host, 'wh', 'stats')).verifiedBy).toEqual(['well-known']);
  await tool(host, 'wh', 'emit', { count: 1 });
  expect(await untilEvents(host, sub.id, 1)).toEqual(['wh-1']);
  await untilAsync(async () => (await relayStats(host)).answers.some((a) => a.status === 200), 10_000, 'the answer');
}, 60_000);

it('a relay server without the relay tools is refused at subscribe, saying what it needs', async () => {
  const host = await start();
  // The events server itself has no relay tools.
  await expect(
    host.mcpEvents.subscribe({ id: 'wh', name: 'hook.tick', arguments: {}, mode: 'webhook', relayServerId: 'wh' }),
  ).rejects.toMatchObject({ code: 'server_error', message: expect.stringContaining('webhook_relay_endpoint') });
  await expect(
    host.mcpEvents.subscribe({ id: 'wh', name: 'hook.tick', arguments: {}, mode: 'webhook', relayServerId: 'nope' }),
  ).rejects.toMatchObject({ code: 'not_found' });
  expect(host.mcpEvents.subscriptions()).toEqual([]);
}, 60_000);

it("after a restart the relay subscription registers again, under the relay's new address, and delivers", async () => {
  let host = await start();
  const sub = await host.mcpEvents.subscribe({ id: 'wh', name: 'hook.tick', arguments: {}, mode: 'webhook', relayServerId: 'relay' });
  await untilState(host, sub.id, 'registered');
  const before = subscription(host, sub.id).webhookUrl ?? '';
  const credentials = h!.credentials;
  await host.shutdown();
  await expectFixturesGone();

  // The same data folder and credential store: the relay fixture comes back on another port.
  h = makeEventsHost(dir, { tuning: { retryBaseMs: 50, retryMaxMs: 400 }, credentials });
  host = h.host;
  await host.start();
  expect(await host.sessions.connect('wh')).toMatchObject({ state: 'connected' });
  expect(await host.sessions.connect('relay')).toMatchObject({ state: 'connected' });
  await relayStats(host);
  seenPids.add((await tool<{ pid: number }>(host, 'wh', 'stats')).pid);
  await untilState(host, sub.id, 'registered', 30_000);
  const after = subscription(host, sub.id).webhookUrl ?? '';
  expect(new URL(after).pathname).toBe(new URL(before).pathname);
  expect(host.mcpEvents.relaysRead()).toEqual(['relay']);
  await tool(host, 'wh', 'emit', { count: 1 });
  expect(await untilEvents(host, sub.id, 1)).toEqual(['wh-1']);
}, 120_000);

it('a relay that cannot be read shows on its subscriptions, and clears once it can be read again', async () => {
  const fail = join(dir, 'relay-down');
  const host = await start({ RELAY_FAIL_FILE: fail });
  const sub = await host.mcpEvents.subscribe({ id: 'wh', name: 'hook.tick', arguments: {}, mode: 'webhook', relayServerId: 'relay' });
  await untilState(host, sub.id, 'registered');
  writeFileSync(fail, '1');
  await until(() => subscription(host, sub.id).status.relayError !== undefined, 30_000, 'the relay problem shown');
  expect(subscription(host, sub.id).status.relayError).toContain('the relay is down');
  rmSync(fail);
  await until(() => subscription(host, sub.id).status.relayError === undefined, 30_000, 'the relay problem cleared');
  await tool(host, 'wh', 'emit', { count: 1 });
  expect(await untilEvents(host, sub.id, 1)).toEqual(['wh-1']);
}, 120_000);
