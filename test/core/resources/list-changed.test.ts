// A server's resource list change and resource updates reach the host across reconnects, through the real Host,
// session manager and stdio transport, against the SDK v2 fixture test/fixtures/servers/res-list-changed.ts, in
// both eras: 2025-11-25 (initialize; resources/subscribe) and 2026-07-28 (discover; subscriptions/listen).
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventMap } from '../../../shared/contract.js';
import { cleanup, tempDir } from '../../shared/support/harness.js';
import { addApproved, fixture, makeSessionHost, stdioServer, until, type SessionHarness } from '../sessions/helpers.js';

let dir: string;
let h: SessionHarness;

const COUNTER = 'res://counter';

const ERAS = [
  { id: 'legacy', lifecycle: 'initialize', version: '2025-11-25' },
  { id: 'modern', lifecycle: 'discover', version: '2026-07-28' },
] as const;

interface Bumped {
  counter: number;
  pid: number;
  era: 'legacy' | 'modern';
  subscribed: string[];
}

function count<E extends 'resources.listChanged' | 'resources.updated'>(name: E, match: (p: EventMap[E]) => boolean): number {
  return h.events.filter((e) => e.event === name && match(e.payload as EventMap[E])).length;
}

const listChanges = (id: string): number => count('resources.listChanged', (p) => p.id === id);
const updates = (id: string): number => count('resources.updated', (p) => p.id === id && p.uri === COUNTER);

async function callTool<T>(id: string, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const client = await h.sessions.client(id);
  const result = await client.callTool({ name, arguments: args });
  const block = (result.content as { type: string; text?: string }[])[0];
  return JSON.parse(block?.text ?? 'null') as T;
}

async function uris(id: string): Promise<string[]> {
  return (await h.host.interaction.resources.list(id)).resources.map((r) => r.uri);
}

/**
 * Resolves once the host has handled everything the server wrote before answering one more request: stdio delivers
 * messages in the order the server wrote them, and the fixture sends an update before it answers the bump.
 */
async function delivered(id: string): Promise<void> {
  const client = await h.sessions.client(id);
  await client.readResource({ uri: COUNTER });
}

/** Crashes the fixture (it answers, then exits 1) and waits for the session to notice. */
async function crash(id: string): Promise<void> {
  await callTool(id, 'crash');
  await until(() => h.sessions.status(id).state !== 'connected', 10_000, 'the session to notice the crash');
}

/**
 * Bumps the counter until a resources.updated event arrives (re-subscription after a connect is best effort and not
 * awaited by the connect, so the first bump may race it); fails when none arrives within `ms`.
 */
async function bumpUntilUpdated(id: string, ms = 10_000): Promise<Bumped> {
  const before = updates(id);
  const end = Date.now() + ms;
  for (;;) {
    const bumped = await callTool<Bumped>(id, 'bump');
    const settle = Date.now() + 500;
    while (Date.now() < settle && updates(id) === before) await sleep(20);
    if (updates(id) > before) return bumped;
    if (Date.now() > end) throw new Error(`no resources.updated for ${COUNTER} on ${id} within ${ms} ms`);
  }
}

beforeAll(async () => {
  dir = tempDir('sb-res-list-changed-');
  h = makeSessionHost(dir);
  for (const era of ERAS) await addApproved(h.host, stdioServer(era.id, fixture('res-list-changed.ts'), { lifecycle: era.lifecycle }));
}, 60_000);

afterAll(async () => {
  await h.host.shutdown();
  cleanup(dir);
});

describe.each(ERAS)('resources on $version ($lifecycle)', ({ id, version }) => {
  it('notifications/resources/list_changed reaches the host as resources.listChanged and a new listing shows the resource', async () => {
    expect(await h.sessions.connect(id)).toMatchObject({ state: 'connected', protocolVersion: version });
    expect(await uris(id)).toEqual([COUNTER]);
    const before = listChanges(id);

    expect(await callTool(id, 'add_resource', { name: 'fresh' })).toEqual({ added: 'res://added/fresh' });
    await until(() => listChanges(id) > before, 10_000, 'resources.listChanged');
    expect(await uris(id)).toEqual([COUNTER, 'res://added/fresh']);
    const read = await h.host.interaction.resources.read(id, { uri: 'res://added/fresh' });
    expect(read.parts[0]).toMatchObject({ kind: 'text', text: 'added fresh' });
  });

  it('a resource subscription is re-established on the new session after a crash and after a restart', async () => {
    const r = h.host.interaction.resources;
    // Nothing is subscribed yet: the fixture's update is not delivered (so the checks below can tell).
    const quiet = updates(id);
    const unsubscribed = await callTool<Bumped>(id, 'bump');
    expect(unsubscribed.subscribed).toEqual([]);
    await delivered(id);
    expect(updates(id)).toBe(quiet);

    await r.subscribe(id, COUNTER);
    expect(r.subscriptions(id)).toEqual([COUNTER]);
    const first = await bumpUntilUpdated(id);
    expect(first.era).toBe(id);
    if (id === 'legacy') expect(first.subscribed).toEqual([COUNTER]);

    // Crash: the next use reconnects to a new process, which has to be told about the subscription again.
    await crash(id);
    const afterCrash = await bumpUntilUpdated(id);
    expect(afterCrash.pid).not.toBe(first.pid);
    expect(afterCrash.counter).toBe(1); // a fresh process
    if (id === 'legacy') expect(afterCrash.subscribed).toEqual([COUNTER]);

    // Restart: the same, through the session manager's restart.
    expect(await h.sessions.restart(id)).toMatchObject({ state: 'connected', protocolVersion: version });
    const afterRestart = await bumpUntilUpdated(id);
    expect(afterRestart.pid).not.toBe(afterCrash.pid);
    if (id === 'legacy') expect(afterRestart.subscribed).toEqual([COUNTER]);
    expect(r.subscriptions(id)).toEqual([COUNTER]);
  }, 60_000);

  // Regression: ResourceService.resubscribe used to run twice per connect (the Interaction.connected hook and a
  // 'connected' session-event listener), so a 2026-07-28 session got two listen() streams, every update twice,
  // and updates after unsubscribe from the orphaned stream.
  it('after a reconnect, one update arrives once and unsubscribing ends the updates', async () => {
    const r = h.host.interaction.resources;
    // The previous test left a re-established subscription on a fresh session. Once an update has arrived on it,
    // a second re-subscription started by the same connect would be open too: its request went down the same pipe
    // before the bump's.
    await bumpUntilUpdated(id);
    await delivered(id);
    const before = updates(id);
    await callTool<Bumped>(id, 'bump');
    await until(() => updates(id) > before, 5000, 'the update');
    await delivered(id);
    expect(updates(id)).toBe(before + 1);

    await r.unsubscribe(id, COUNTER);
    expect(r.subscriptions(id)).toEqual([]);
    const after = updates(id);
    const bumped = await callTool<Bumped>(id, 'bump');
    if (id === 'legacy') expect(bumped.subscribed).toEqual([]);
    await delivered(id);
    expect(updates(id)).toBe(after);
  });
});
