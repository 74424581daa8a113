// The events tap on a real SDK Client and server over the SDK's in-memory transport: notifications reach their
// stream in order, the local stream marker never reaches the server, a notification that arrives before its stream
// is bound is held and then delivered first, and list_changed reaches its hook.
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { afterEach, expect, it } from 'vitest';
import * as z from 'zod';
import { EventTap, STREAM_KEY_META } from '../../../electron/core/events/event-tap.js';
import { NO_TIMEOUT_MS } from '../../../electron/core/events/push-runner.js';
import { StreamResultSchema, SUBSCRIPTION_ID_META } from '../../../electron/core/events/wire.js';
import { until } from './helpers.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

async function pair() {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const seenMeta: unknown[] = [];
  const server = new McpServer({ name: 'tap-test', version: '1' }, { capabilities: {} });
  server.server.setRequestHandler('events/stream', { params: z.looseObject({ name: z.string() }) }, async (params, ctx) => {
    seenMeta.push(ctx.mcpReq._meta);
    const id = ctx.mcpReq.id;
    const meta = { [SUBSCRIPTION_ID_META]: id };
    await ctx.mcpReq.notify({ method: 'notifications/events/active', params: { cursor: '0', _meta: meta } } as never);
    for (let i = 1; i <= 50; i++)
      await ctx.mcpReq.notify({
        method: 'notifications/events/event',
        params: { eventId: `e${i}`, name: 'x', data: {}, _meta: meta },
      } as never);
    await new Promise<void>((r) => ctx.mcpReq.signal.addEventListener('abort', () => r()));
    return {};
  });
  await server.connect(serverSide);
  const client = new Client({ name: 'c', version: '1' });
  await client.connect(clientSide);
  closers.push(async () => {
    await client.close();
    await server.close();
  });
  return { client, serverSide, seenMeta };
}

it('routes a stream’s notifications in order, keeps the marker off the wire, and holds one that beat its stream', async () => {
  const { client, serverSide, seenMeta } = await pair();
  let listChanged = 0;
  const tap = EventTap.of(client, { listChanged: () => (listChanged += 1), log: () => undefined });
  if (!tap) throw new Error('no tap');
  const got: string[] = [];
  const binding = tap.expect({
    notification: (method, params) => got.push(method === 'notifications/events/event' ? String(params['eventId']) : method),
    ended: () => got.push('ended'),
  });
  // After initialize (id 0), this client's next request is id 1: a notification for it arrives before the request.
  await serverSide.send({
    jsonrpc: '2.0',
    method: 'notifications/events/event',
    params: { eventId: 'early', name: 'x', data: {}, _meta: { [SUBSCRIPTION_ID_META]: 1 } },
  });
  await serverSide.send({ jsonrpc: '2.0', method: 'notifications/events/list_changed', params: {} });
  const abort = new AbortController();
  const done = client
    .request({ method: 'events/stream', params: { name: 'x', _meta: { [STREAM_KEY_META]: binding.key } } }, StreamResultSchema, {
      signal: abort.signal,
      timeout: NO_TIMEOUT_MS,
    })
    .catch(() => 'aborted');
  await until(() => got.length >= 52, 5000, 'the stream’s notifications');
  expect(binding.requestId).toBe('1');
  expect(got).toEqual(['early', 'notifications/events/active', ...Array.from({ length: 50 }, (_, i) => `e${i + 1}`)]);
  expect(listChanged).toBe(1);
  // The server never saw the local marker.
  expect(JSON.stringify(seenMeta)).not.toContain(STREAM_KEY_META);
  abort.abort();
  expect(await done).toBe('aborted');
  binding.dispose();
});

it('notifications for no open stream are dropped (after the hold) with one log line', async () => {
  const { client, serverSide } = await pair();
  const lines: string[] = [];
  const tap = EventTap.of(client, { listChanged: () => undefined, log: (_level, text) => lines.push(text) });
  expect(tap).toBeDefined();
  for (let i = 0; i < 3; i++)
    await serverSide.send({
      jsonrpc: '2.0',
      method: 'notifications/events/event',
      params: { eventId: `o${i}`, _meta: { [SUBSCRIPTION_ID_META]: 99 } },
    });
  // Drops are counted per hold window: one line normally, more when a loaded machine spreads the sends across windows.
  const dropped = () =>
    lines.reduce((n, l) => n + Number(/^Dropped (\d+) event notification\(s\) that belonged to no open stream$/.exec(l)?.[1] ?? NaN), 0);
  await until(() => dropped() >= 3, 6000, 'the drops to be logged');
  expect(dropped()).toBe(3);
  expect(lines.length).toBeLessThanOrEqual(3);
});
