// Detection and listing of event types through the contract: `events/list` across pages within the budgets (types
// over budget, duplicates, unknown delivery modes and unsafe names skipped with notices), a server without events
// ("method not found"), one that ignores the method (given the probe time), `notifications/events/list_changed`
// (re-listed, and an activity entry), and the event types on the server's catalog group card.
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { EventTypesResult } from '../../../shared/domains/events.js';
import type { GroupCard } from '../../../shared/domains/catalog.js';
import { createDispatcher } from '../../../electron/core/dispatcher.js';
import { createHandlers } from '../../../electron/core/handlers.js';
import { call, cleanup, tempDir } from '../../shared/support/harness.js';
import {
  addApproved,
  eventsStdio,
  expectFixturesGone,
  feedAll,
  makeEventsHost,
  stats,
  tool,
  until,
  type EventsHarness,
} from './helpers.js';

let dir: string;
let h: EventsHarness | undefined;

beforeEach(() => {
  dir = tempDir('sb-events-detect-');
});

afterEach(async () => {
  await h?.host.shutdown();
  h = undefined;
  cleanup(dir);
  await expectFixturesGone();
});

it.each([
  { lifecycle: 'initialize', version: '2025-11-25' },
  { lifecycle: 'discover', version: '2026-07-28' },
] as const)('lists event types across pages within the budgets, with a notice per skipped type ($version)', async ({ lifecycle }) => {
  h = makeEventsHost(dir);
  const { host } = h;
  const dispatch = createDispatcher(createHandlers(host));
  await addApproved(host, eventsStdio('ev', { lifecycle }, { EVENTS_FIXTURE_HOSTILE_TYPES: '1' }));
  // events.types connects the server when needed.
  const result = await call<EventTypesResult>(dispatch, 'events.types', { id: 'ev' });
  expect(result.supported).toBe(true);
  expect(result.types.map((t) => t.name)).toEqual(['alert', 'fails', 'quiet', 'tick.all', 'tick.poll', 'tick.push']);
  expect(result.types.find((t) => t.name === 'tick.all')?.delivery).toEqual(['poll', 'push', 'webhook']);
  expect(result.types.find((t) => t.name === 'tick.poll')?.delivery).toEqual(['poll']);
  expect(result.types.find((t) => t.name === 'alert')?.inputSchema).toMatchObject({ properties: { severity: { enum: ['low', 'high'] } } });
  expect(result.notices).toEqual([
    expect.stringMatching(/"big\.description" was skipped: its description is over 8192 bytes/),
    expect.stringMatching(/"big\.schema" was skipped: its input schema is \d+ bytes \(budget 65536\)/),
    expect.stringMatching(/"tick\.poll" is listed twice; the first one is kept/),
    expect.stringMatching(/"no\.delivery" was skipped: it offers no delivery mode/),
    expect.stringMatching(/was skipped: its name contains control or bidi characters/),
  ]);
  expect(result.notices.join(' ')).not.toMatch(/\u202E/);
  // A second call answers from the last listing.
  const listCalls = (await stats(host, 'ev')).listCalls;
  await call(dispatch, 'events.types', { id: 'ev' });
  expect((await stats(host, 'ev')).listCalls).toBe(listCalls);
});

it('a server without events/list has no events; subscribing is refused plainly', async () => {
  h = makeEventsHost(dir);
  const { host } = h;
  await addApproved(host, eventsStdio('plain', { lifecycle: 'discover' }, { EVENTS_FIXTURE_NO_EVENTS: '1' }));
  const result = await host.mcpEvents.types('plain');
  expect(result).toMatchObject({ serverId: 'plain', supported: false, types: [], notices: [] });
  await expect(host.mcpEvents.subscribe({ id: 'plain', name: 'tick.poll', arguments: {}, mode: 'poll' })).rejects.toMatchObject({
    code: 'invalid_request',
    message: 'This server offers no events',
  });
  await stats(host, 'plain');
});

it('a server that ignores events/list is given the probe time, then treated as having none', async () => {
  h = makeEventsHost(dir);
  const { host } = h;
  await addApproved(
    host,
    eventsStdio('mute', { lifecycle: 'initialize', timeouts: { probeSecs: 1, connectSecs: 60 } }, { EVENTS_FIXTURE_IGNORE: '1' }),
  );
  expect(await host.sessions.connect('mute')).toMatchObject({ state: 'connected' });
  const result = await host.mcpEvents.types('mute');
  expect(result.supported).toBe(false);
  expect(result.notices).toEqual(['The server did not answer events/list within 1 s; treated as having no events']);
  await stats(host, 'mute');
});

it('notifications/events/list_changed re-lists the types and leaves an activity entry; the catalog card shows the types', async () => {
  h = makeEventsHost(dir);
  const { host } = h;
  await addApproved(host, eventsStdio('ev', { lifecycle: 'initialize' }));
  expect(await host.sessions.connect('ev')).toMatchObject({ state: 'connected' });
  await until(() => host.mcpEvents.knownTypes('ev') !== undefined, 10_000, 'the listing at connect');
  expect(host.mcpEvents.knownTypes('ev')?.map((t) => t.name)).not.toContain('dynamic');
  await until(() => host.catalog.groups().some((g) => g.serverId === 'ev'), 10_000, 'the catalog group');
  const card = host.catalog.groups(false).find((g) => g.serverId === 'ev') as GroupCard;
  expect(card.eventTypeCount).toBe(6);
  expect(card.eventTypes).toEqual(['alert', 'fails', 'quiet', 'tick.all', 'tick.poll', 'tick.push']);

  await tool(host, 'ev', 'add_type');
  await until(() => host.mcpEvents.knownTypes('ev')?.some((t) => t.name === 'dynamic') === true, 10_000, 'the re-listing');
  const activity = feedAll(host, { kinds: ['activity'], serverIds: ['ev'] }).filter((e) => e.activity === 'event-types-changed');
  expect(activity.map((e) => e.message)).toEqual([
    'Offers 7 event type(s): alert, dynamic, fails, quiet, tick.all and 2 more',
    'Offers 6 event type(s): alert, fails, quiet, tick.all, tick.poll and 1 more',
  ]);
  expect(host.catalog.groups(false).find((g) => g.serverId === 'ev')?.eventTypeCount).toBe(7);
  await stats(host, 'ev');
});
