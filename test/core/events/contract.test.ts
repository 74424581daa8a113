// The events domain through the dispatcher: arguments validated before the core sees them, plain typed errors, and
// the empty feed and subscription list of a fresh host.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { call, cleanup, makeHost, tempDir, type HostHarness } from '../../shared/support/harness.js';

let dir: string;
let h: HostHarness;

beforeEach(() => {
  dir = tempDir('sb-events-contract-');
  h = makeHost(dir);
});

afterEach(async () => {
  await h.host.shutdown();
  cleanup(dir);
});

it('answers a fresh host with no subscriptions and an empty feed', async () => {
  expect(await call(h.dispatch, 'events.subscriptions', {})).toEqual([]);
  expect(await call(h.dispatch, 'events.feed', { filter: {}, limit: 50 })).toEqual({ entries: [], total: 0 });
});

it.each([
  ['events.types', {}],
  ['events.types', { id: '' }],
  ['events.subscribe', { id: 'a', name: 'x', arguments: {}, mode: 'carrier' }],
  ['events.subscribe', { id: 'a', name: 'x', arguments: {}, mode: 'webhook' }],
  ['events.subscribe', { id: 'a', name: 'x', arguments: {}, mode: 'poll', webhookUrl: 'https://x.example/h' }],
  ['events.subscribe', { id: 'a', name: 'x', arguments: { big: 'x'.repeat(70 * 1024) }, mode: 'poll' }],
  ['events.subscribe', { id: 'a', name: 'x', arguments: [], mode: 'poll' }],
  ['events.subscribe', { id: 'a', name: 'x', arguments: {}, mode: 'poll', extra: 1 }],
  ['events.feed', { filter: {}, limit: 0 }],
  ['events.feed', { filter: {}, limit: 501 }],
  ['events.feed', { filter: {}, limit: 10, cursor: 'abc' }],
  ['events.feed', { filter: { kinds: ['nope'] }, limit: 10 }],
  ['events.feed', { filter: { text: 'x'.repeat(2000) }, limit: 10 }],
  ['events.feed', { filter: { colour: 'red' }, limit: 10 }],
  ['events.pause', { subscriptionId: '' }],
  ['events.remove', {}],
])('%s refuses %j with invalid_request', async (method, args) => {
  const env = await h.dispatch(method, args);
  expect(env).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
});

it('unknown servers and subscriptions are not_found', async () => {
  expect(await h.dispatch('events.types', { id: 'nope' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  expect(await h.dispatch('events.subscribe', { id: 'nope', name: 'x', arguments: {}, mode: 'poll' })).toMatchObject({
    ok: false,
    error: { code: 'not_found' },
  });
  for (const method of ['events.pause', 'events.resume', 'events.remove'])
    expect(await h.dispatch(method, { subscriptionId: 'missing' })).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: 'No event subscription missing' },
    });
});
