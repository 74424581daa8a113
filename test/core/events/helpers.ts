// Test support for the events client: a real Host (real SessionManager, real transports, memory credentials) on a
// settings folder that can be reopened (a host restart), the events fixtures, and small readers of the feed.
import { readFileSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/client';
import type { ServerConfigInput } from '../../../shared/config.js';
import type { EventMap } from '../../../shared/contract.js';
import type { FeedEntry, FeedFilter, SubscriptionView } from '../../../shared/domains/events.js';
import type { Host } from '../../../electron/core/host.js';
import type { EventsTuning } from '../../../electron/core/events/tuning.js';
import { SessionManager } from '../../../electron/core/sessions/session-manager.js';
import { MemoryCredentialStore } from '../../../electron/platform/memory-credential-store.js';
import { confSettingsStore, testCore } from '../../shared/support/harness.js';
import { fixture, stdioServer, testTransportFactory, until } from '../sessions/helpers.js';

export { addApproved, startHttpFixture, until } from '../sessions/helpers.js';

/** The stdio events fixture. */
export const EVENTS_STDIO = fixture('events-stdio.ts');
/** The HTTP events fixture. */
export const EVENTS_HTTP = fixture('events-http.ts');

/** A Host built the way bootstrap builds it, with the events timings under test. */
export interface EventsHarness {
  host: Host;
  credentials: MemoryCredentialStore;
  /** Every event the core pushed. */
  pushed: { event: keyof EventMap; payload: EventMap[keyof EventMap] }[];
}

/** Builds a Host on `dir` (reusing `credentials` keeps secrets across a "restart"). */
export function makeEventsHost(
  dir: string,
  opts: { tuning?: Partial<EventsTuning>; credentials?: MemoryCredentialStore } = {},
): EventsHarness {
  const credentials = opts.credentials ?? new MemoryCredentialStore();
  const host = testCore({
    settingsStore: confSettingsStore(dir),
    credentials,
    createSessions: (h) => new SessionManager(h, { credentials, createTransport: testTransportFactory }),
    ...(opts.tuning ? { eventsTuning: opts.tuning } : {}),
  });
  const pushed: EventsHarness['pushed'] = [];
  host.events.subscribe((event, payload) => pushed.push({ event, payload }));
  return { host, credentials, pushed };
}

/** The stdio events fixture as a server definition. */
export function eventsStdio(id: string, extra: Partial<ServerConfigInput> = {}, env: Record<string, string> = {}): ServerConfigInput {
  // Generous probe and connect bounds: the machine is shared and a tsx child can take seconds to start under load.
  return stdioServer(id, EVENTS_STDIO, { timeouts: { probeSecs: 30, connectSecs: 60 }, ...extra }, env);
}

/** Every feed entry matching `filter`, newest first (walks all pages). */
export function feedAll(host: Host, filter: FeedFilter = {}): FeedEntry[] {
  const out: FeedEntry[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = host.mcpEvents.feed(filter, cursor, 500);
    out.push(...page.entries);
    if (page.nextCursor === undefined) return out;
    cursor = page.nextCursor;
  }
}

/** Event ids stored for a subscription, oldest first. */
export function eventIds(host: Host, subscriptionId: string): string[] {
  return feedAll(host, { subscriptionIds: [subscriptionId], kinds: ['event'] })
    .map((e) => e.eventId ?? '')
    .reverse();
}

/** Calls a fixture tool on a connected server and parses its JSON text result. */
export async function tool<T = Record<string, unknown>>(
  host: Host,
  id: string,
  name: string,
  args: Record<string, unknown> = {},
): Promise<T> {
  const client: Client = await host.sessions.client(id);
  const result = await client.callTool({ name, arguments: args }, { timeout: 120_000 });
  const block = (result.content as { type: string; text?: string }[])[0];
  return JSON.parse(block?.text ?? 'null') as T;
}

/** What the fixture saw. */
export interface FixtureStats {
  polls: number;
  pollCursors: (string | null)[];
  pollAt: number[];
  pollTimeouts: (number | null)[];
  streamsOpened: number;
  streamCursors: (string | null)[];
  streamsCancelled: number;
  streamsOpen: number;
  subscribes: number;
  refreshes: number;
  unsubscribes: number;
  deliveries: { status: number; eventId: string }[];
  listCalls: number;
  position: number;
  pid: number;
  hooks: { id: string; url: string; name: string; refreshes: number; refreshBefore: string }[];
}

/** The fixture's counters. */
export async function stats(host: Host, id: string): Promise<FixtureStats> {
  const s = await tool<FixtureStats>(host, id, 'stats');
  seenPids.add(s.pid);
  return s;
}

/** Waits until an async check passes (each check runs after the previous one settled). */
export async function untilAsync(check: () => Promise<boolean>, ms = 10_000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Pids of fixture processes seen through `stats` (checked gone after each test). */
export const seenPids = new Set<number>();

/** Waits until every fixture process seen is gone (zombies aside: PID 1 does not reap here), then forgets them. */
export async function expectFixturesGone(ms = 10_000): Promise<void> {
  const pids = [...seenPids];
  seenPids.clear();
  await until(() => pids.every((pid) => !running(pid)), ms, `fixture processes ${pids.join(', ')} to exit`);
}

/** True while a process exists and is not a zombie. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** The current view of a subscription. */
export function subscription(host: Host, subscriptionId: string): SubscriptionView {
  const found = host.mcpEvents.subscriptions().find((s) => s.id === subscriptionId);
  if (!found) throw new Error(`no subscription ${subscriptionId}`);
  return found;
}

/** Waits until a subscription is in `state`. */
export async function untilState(
  host: Host,
  subscriptionId: string,
  state: SubscriptionView['status']['state'],
  ms = 20_000,
): Promise<SubscriptionView> {
  await until(() => subscription(host, subscriptionId).status.state === state, ms, `subscription ${subscriptionId} to be ${state}`);
  return subscription(host, subscriptionId);
}

/** Waits until a subscription stored `n` events. */
export async function untilEvents(host: Host, subscriptionId: string, n: number, ms = 20_000): Promise<string[]> {
  await until(() => eventIds(host, subscriptionId).length >= n, ms, `${n} events for ${subscriptionId}`);
  return eventIds(host, subscriptionId);
}
