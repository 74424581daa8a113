// kill -9 of the core with real processes (headless Switchboard from source, real stdio servers, the bridge a page
// uses) in the middle of the three kinds of writing it does: History (written a moment after each call), the event
// feed of a live subscription, and a burst of settings changes. Round after round, through the same bridge connection:
// what was acknowledged is there after the restart (History: all but the last moments, and what it has is whole and
// in order), no file was set aside as corrupt, nothing of the dead core runs, and the new core serves.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from './support/processes.js';
import { killCore, launch, quarantined, scratchDir, stopLaunched, type Bridge } from './support/headless.js';
import { TSX_LOADER } from '../shared/support/tsx-loader.js';

const callsFixture = fileURLToPath(new URL('../fixtures/servers/calls-stdio.ts', import.meta.url));
const eventsFixture = fileURLToPath(new URL('../fixtures/servers/events-stdio.ts', import.meta.url));
/**
 * Kill rounds per test; SWITCHBOARD_TEST_KILL_ROUNDS=20 runs the 20. The shell's own waits between restarts
 * grow to 4 s after a few quick kills, which would make a round cost 5-7 s whatever the test does; these tests are
 * about what is kept, not about pacing (core-supervisor.test.ts is), so they restart at once. What is left of a round
 * is a core's start-up (Node, tsx, the servers), which on two shared cores still keeps 20 rounds well past the suite's
 * budget (measured: 20 rounds took 167-247 s per test at load average 18-35), so the default stays 12.
 */
const ROUNDS = Number(process.env['SWITCHBOARD_TEST_KILL_ROUNDS'] ?? 12);
/**
 * Restart waits for these tests, and a kill limit above their rounds (test-only; the supervisor's pacing and its limit
 * on kills from outside are tested on their own).
 */
const FAST_RESTARTS = { SWITCHBOARD_TEST_CORE_RESTART_BACKOFF_MS: '50', SWITCHBOARD_TEST_CORE_MAX_KILLS: String(ROUNDS + 1) };
/** History writes a moment (200 ms) after a call; a call answered this long before the kill must be in it. */
const SURELY_WRITTEN_MS = 1000;

afterEach(stopLaunched);

async function addStdio(bridge: Bridge, id: string, script: string, env: Record<string, string> = {}): Promise<void> {
  const detail = await bridge.rpc<{ approval?: { fingerprint: string } }>('servers.add', {
    config: { id, name: id, transport: { type: 'stdio', command: process.execPath, args: ['--import', TSX_LOADER, script], env } },
  });
  await bridge.rpc('servers.approve', { id, fingerprint: detail.approval!.fingerprint });
  await bridge.rpc('servers.connect', { id });
}

interface Acked {
  callId: string;
  at: number;
}

describe('kill -9 of the core while it writes', () => {
  it(`mid-history-write, ${ROUNDS} times: History keeps every call but the last moments', in order and whole, and says the last moments may be missing`, async () => {
    const launched = await launch(FAST_RESTARTS);
    const { bridge, dataDir } = launched;
    await addStdio(bridge, 'calls', callsFixture);
    const call = async (): Promise<Acked> => {
      const out = await bridge.rpc<{ callId: string; status: string }>('tools.call', {
        name: 'mcp__calls__slow',
        // Each call takes the server 40 ms, so 20 rounds stay well within History's 1000 entries (none is trimmed).
        arguments: { ms: 40, steps: 1 },
      });
      expect(out.status).toBe('ok');
      return { callId: out.callId, at: Date.now() };
    };
    let kept = new Set<string>();
    let pendingFromLast: Acked[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      // Calls answered one after another for a while, then the kill right after the last answer: History is being
      // written (every 200 ms) while the calls go on, so the kill lands in or just after a write.
      const acked: Acked[] = [...pendingFromLast];
      const start = Date.now();
      while (Date.now() - start < SURELY_WRITTEN_MS + 300) acked.push(await call());
      const killedAt = Date.now();
      await killCore(launched);

      const history = await bridge.rpc<{ entries: { callId: string; serverId: string; status: string }[]; total: number }>(
        'calls.history',
        { limit: 1000 },
      );
      // Every entry read back whole (the store sets aside what it cannot read; nothing was, see below).
      expect(history.entries.filter((e) => e.serverId !== 'calls' || e.status !== 'ok')).toEqual([]);
      const ids = history.entries.map((e) => e.callId);
      expect(new Set(ids).size, 'no entry twice').toBe(ids.length);
      expect(history.total).toBe(ids.length);
      // Nothing History had already kept is lost by a later kill.
      for (const id of kept) expect(ids, `round ${round}: ${id} kept before`).toContain(id);
      // Of this round's calls, History has a prefix: everything up to some call, nothing after a gap.
      const present = acked.map((a) => ids.includes(a.callId));
      const firstMissing = present.indexOf(false);
      if (firstMissing >= 0)
        expect(
          present.slice(firstMissing).every((p) => !p),
          `round ${round}: a prefix`,
        ).toBe(true);
      // And that prefix reaches at least every call answered well before the kill.
      for (const a of acked.filter((x) => killedAt - x.at >= SURELY_WRITTEN_MS))
        expect(ids, `round ${round}: ${a.callId} answered ${killedAt - a.at} ms before the kill`).toContain(a.callId);
      expect(quarantined(dataDir)).toEqual([]);
      kept = new Set(ids);

      const info = await bridge.rpc<{ notices: { id: string; message: string }[] }>('app.info', {});
      // One notice says the core was restarted and that History's last calls may be missing.
      expect(info.notices.find((n) => n.id === 'core-restarted')?.message).toMatch(
        /core stopped \(killed by SIGKILL\) and was restarted.*the last calls before the stop may be missing/,
      );
      // The new core serves: the server connects again and a call is answered (it is part of the next round).
      await bridge.rpc('servers.connect', { id: 'calls' });
      pendingFromLast = [await call()];
    }
  }, 600_000);

  it(`mid-event-stream, ${ROUNDS} times: the push subscription comes back as configured and delivers again, the feed keeps what it had`, async () => {
    const launched = await launch(FAST_RESTARTS);
    const { bridge, dataDir } = launched;
    // The fixture's own log of occurrences survives its restarts, so the kept cursor means the same thing after one.
    const state = join(scratchDir('sb-events-state-'), 'log.json');
    await addStdio(bridge, 'ev', eventsFixture, { EVENTS_FIXTURE_STATE: state });
    const sub = await bridge.rpc<{ id: string }>('events.subscribe', { id: 'ev', name: 'tick.push', arguments: {}, mode: 'push' });
    const feedIds = async (): Promise<string[]> => {
      const ids: string[] = [];
      for (let cursor: string | undefined, first = true; first || cursor !== undefined; first = false) {
        const page = await bridge.rpc<{ entries: { eventId?: string; subscriptionId?: string }[]; nextCursor?: string }>('events.feed', {
          filter: { kinds: ['event'] },
          limit: 500,
          ...(cursor !== undefined ? { cursor } : {}),
        });
        for (const e of page.entries) if (e.subscriptionId === sub.id && e.eventId) ids.push(e.eventId);
        cursor = page.nextCursor;
      }
      return ids;
    };
    const emit = (prefix: string, count: number): Promise<unknown> =>
      bridge.rpc('tools.call', { name: 'mcp__ev__emit', arguments: { name: 'tick.push', count, idPrefix: prefix } });
    const delivered = async (what: string, prefix: string): Promise<void> => {
      for (const deadline = Date.now() + 20_000; !(await feedIds()).some((id) => id.startsWith(`${prefix}-`));) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await emit('warm', 1);
    await delivered('the first occurrence', 'warm');
    // The subscription is on disk before the first kill (it is written a moment after it is made).
    await until('the subscription to be saved', () => {
      try {
        return readFileSync(join(dataDir, 'events', 'subscriptions.json'), 'utf8').includes(sub.id);
      } catch {
        return false;
      }
    });
    // What the feed has on disk (it is written a moment after occurrences arrive, so the last moments' may not be).
    const onDisk = (eventId: string): boolean => {
      const feed = join(dataDir, 'events', 'feed');
      if (!existsSync(feed)) return false;
      // Only the feed's own files: an atomic write's temporary file may be renamed away between listing and reading.
      return readdirSync(feed)
        .filter((f) => f.endsWith('.json'))
        .some((f) => readFileSync(join(feed, f), 'utf8').includes(`"${eventId}"`));
    };
    let kept: string[] = [];
    let marker = 'warm-1';
    for (let round = 1; round <= ROUNDS; round++) {
      // The last occurrence before this round is stored: it must be in the feed after the kill.
      await until(`${marker} to be stored`, () => onDisk(marker));
      kept.push(marker);
      // Kill while occurrences stream in: after the first of a burst is pushed to the page, before the rest are.
      const since = bridge.events.length;
      const burst = emit(`r${round}`, 60).catch(() => undefined);
      await until('the stream to deliver', () =>
        bridge.events.slice(since).some((e) => e.method === 'events.occurred' && JSON.stringify(e.params).includes(`"r${round}-`)),
      );
      await killCore(launched);
      await burst;

      const subs = await bridge.rpc<{ id: string; serverId: string; name: string; mode: string; arguments: unknown }[]>(
        'events.subscriptions',
        {},
      );
      expect(subs.map((s) => ({ id: s.id, serverId: s.serverId, name: s.name, mode: s.mode, arguments: s.arguments }))).toEqual([
        { id: sub.id, serverId: 'ev', name: 'tick.push', mode: 'push', arguments: {} },
      ]);
      const ids = await feedIds();
      expect(new Set(ids).size, `round ${round}: no occurrence twice`).toBe(ids.length);
      for (const id of kept) expect(ids, `round ${round}: ${id} was in the feed`).toContain(id);
      expect(quarantined(dataDir)).toEqual([]);
      // The restored subscription delivers what happens after the restart.
      await bridge.rpc('servers.connect', { id: 'ev' });
      await emit(`after${round}`, 1);
      await delivered(`round ${round}: an occurrence after the restart`, `after${round}`);
      // What is stored now stays stored (what arrived since the restart may still be only in memory).
      kept = ids.filter(onDisk);
      marker = (await feedIds()).find((id) => id.startsWith(`after${round}-`))!;
    }
  }, 600_000);

  it(`mid-settings-change, ${ROUNDS} times: every acknowledged change of a burst is kept, nothing is set aside`, async () => {
    const launched = await launch(FAST_RESTARTS);
    const { bridge, dataDir } = launched;
    const def = (id: string, name: string) => ({
      id,
      name,
      enabled: false,
      transport: { type: 'http', url: 'http://127.0.0.1:9/mcp' },
    });
    await bridge.rpc('servers.add', { config: def('base', 'base 0') });
    const expected = new Map<string, string>([['base', 'base 0']]);
    for (let round = 1; round <= ROUNDS; round++) {
      // A burst of adds and renames sent together; the kill comes once the first is acknowledged.
      const acked: [string, string][] = [];
      const sent: [string, string][] = [];
      const burst: Promise<unknown>[] = [];
      for (let i = 0; i < 12; i++) {
        const [id, name] = i % 3 === 2 ? ['base', `base ${round}.${i}`] : [`r${round}-${i}`, `added ${round}.${i}`];
        sent.push([id, name]);
        const method = id === 'base' ? 'servers.update' : 'servers.add';
        const params = id === 'base' ? { id, config: def(id, name) } : { config: def(id, name) };
        burst.push(
          bridge.rpc(method, params).then(
            () => acked.push([id, name]),
            (err: Error & { code?: string }) => expect(err.code).toBe('core_restarted'),
          ),
        );
      }
      await until('a change to be acknowledged', () => acked.length > 0);
      await killCore(launched);
      await Promise.all(burst);

      const servers = await bridge.rpc<{ id: string; name: string }[]>('servers.list', {});
      const got = new Map(servers.map((s) => [s.id, s.name]));
      for (const [id, name] of acked) expected.set(id, name);
      // Every acknowledged change is there; a change not acknowledged may be there too (written, then killed
      // before the answer), and nothing else is.
      for (const [id, name] of expected) {
        const unackedLater = sent.filter(([sid]) => sid === id).map(([, n]) => n);
        if (id === 'base')
          expect([name, ...unackedLater.slice(unackedLater.indexOf(name) + 1)], `base in round ${round}`).toContain(got.get(id));
        else expect(got.get(id), `${id} in round ${round}`).toBe(name);
      }
      for (const [id, name] of got) {
        if (!expected.has(id)) expect(sent, `round ${round}: ${id} was sent`).toContainEqual([id, name]);
        expected.set(id, name);
      }
      expect(quarantined(dataDir)).toEqual([]);
    }
    // The new core serves a change too.
    await bridge.rpc('servers.add', { config: def('last', 'last') });
    expect((await bridge.rpc<{ id: string }[]>('servers.list', {})).map((s) => s.id)).toContain('last');
  }, 600_000);
});
