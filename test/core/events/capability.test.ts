// The server's Overview lists `events` among its capabilities for a server with events (both eras), whether or not
// the SDK kept the capability it advertised; a server without events does not get it.
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { EventTypesResult } from '../../../shared/domains/events.js';
import { createDispatcher } from '../../../electron/core/dispatcher.js';
import { createHandlers } from '../../../electron/core/handlers.js';
import { call, cleanup, tempDir } from '../../shared/support/harness.js';
import { fixture, stdioServer } from '../sessions/helpers.js';
import { addApproved, eventsStdio, expectFixturesGone, makeEventsHost, until, type EventsHarness } from './helpers.js';

let dir: string;
let h: EventsHarness | undefined;

beforeEach(() => {
  dir = tempDir('sb-events-caps-');
});

afterEach(async () => {
  await h?.host.shutdown();
  h = undefined;
  cleanup(dir);
  await expectFixturesGone();
});

it.each(['initialize', 'discover'] as const)('an events server has `events` in its Overview capabilities (%s)', async (lifecycle) => {
  h = makeEventsHost(dir);
  const { host } = h;
  const dispatch = createDispatcher(createHandlers(host));
  await addApproved(host, eventsStdio('ev', { lifecycle }));
  // Windows fetch the details again on servers.changed: one comes once the listing found the types.
  const changes = (): number => h!.pushed.filter((e) => e.event === 'servers.changed').length;
  const before = changes();
  const types = await call<EventTypesResult>(dispatch, 'events.types', { id: 'ev' });
  expect(types.supported).toBe(true);
  expect((await host.get('ev')).identity?.capabilities).toContain('events');
  await until(() => changes() > before, 10_000, 'servers.changed after the listing');
});

it('a server without events does not', async () => {
  h = makeEventsHost(dir);
  const { host } = h;
  await addApproved(host, stdioServer('echo', fixture('echo-stdio.ts')));
  expect((await host.sessions.connect('echo')).state).toBe('connected');
  expect((await host.get('echo')).identity?.capabilities).not.toContain('events');
});
