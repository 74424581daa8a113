// The host's own activity as the feed's second kind of entry: connected, failed, disconnected, a resource list
// change and a resource update (real servers over stdio), filterable by kind, and still there after a restart.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { cleanup, tempDir } from '../../shared/support/harness.js';
import { fixture, stdioServer } from '../sessions/helpers.js';
import { addApproved, expectFixturesGone, seenPids, feedAll, makeEventsHost, tool, until, type EventsHarness } from './helpers.js';

let dir: string;
let h: EventsHarness | undefined;

beforeEach(() => {
  dir = tempDir('sb-events-activity-');
});

afterEach(async () => {
  await h?.host.shutdown();
  h = undefined;
  cleanup(dir);
  await expectFixturesGone();
});

const activities = (harness: EventsHarness, serverId: string): string[] =>
  feedAll(harness.host, { kinds: ['activity'], serverIds: [serverId] })
    .map((e) => e.activity ?? '')
    .reverse();

it('records connects, failures, disconnects, list changes and resource updates; keeps them across a restart', async () => {
  h = makeEventsHost(dir);
  const { host } = h;
  await addApproved(
    host,
    stdioServer('res', fixture('res-list-changed.ts'), { lifecycle: 'initialize', timeouts: { probeSecs: 30, connectSecs: 60 } }),
  );
  await addApproved(host, stdioServer('bad', fixture('exit-at-once.ts'), { lifecycle: 'initialize' }));
  expect(await host.sessions.connect('res')).toMatchObject({ state: 'connected' });
  const failed = await host.sessions.connect('bad');
  expect(failed.state).toBe('failed');

  await tool(host, 'res', 'add_resource', { name: 'fresh' });
  await host.interaction.resources.subscribe('res', 'res://counter');
  const bumped = await tool<{ pid: number }>(host, 'res', 'bump');
  seenPids.add(bumped.pid);
  await until(() => activities(h as EventsHarness, 'res').includes('resource-updated'), 10_000, 'the resource update');
  await until(() => activities(h as EventsHarness, 'res').includes('resources-changed'), 10_000, 'the list change');
  await host.sessions.disconnect('res');
  await until(() => activities(h as EventsHarness, 'res').includes('disconnected'), 10_000, 'the disconnect');

  expect(activities(h, 'res')).toEqual(['connected', 'resources-changed', 'resource-updated', 'disconnected']);
  expect(activities(h, 'bad')).toEqual(['failed']);
  const [fail] = feedAll(host, { kinds: ['activity'], serverIds: ['bad'] });
  expect(fail?.message).toMatch(/^Connection failed: /);
  const update = feedAll(host, { kinds: ['activity'], serverIds: ['res'] }).find((e) => e.activity === 'resource-updated');
  expect(update).toMatchObject({ uri: 'res://counter', message: 'Resource updated: res://counter' });
  // Filtering activity out leaves the occurrences (none here).
  expect(feedAll(host, { kinds: ['event', 'gap', 'error'] })).toEqual([]);
  expect(bumped.pid).toBeGreaterThan(0);

  await host.shutdown();
  h = makeEventsHost(dir);
  expect(activities(h, 'res')).toEqual(['connected', 'resources-changed', 'resource-updated', 'disconnected']);
}, 60_000);
