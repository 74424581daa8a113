// The session's one 2026-07-28 change stream against a real SDK v2 serveStdio server: delivery, reopen after a gap, gap events.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../electron/core/sessions/session-events.js';
import { CHANGE_STREAM_MAX_FAILURES, changeStreamBackoff, changeStreamFilter } from '../../../electron/core/sessions/change-stream.js';
import { cleanup, tempDir } from '../../shared/support/harness.js';
import { addApproved, localFixture, makeSessionHost, stdioServer, until, type SessionHarness } from './helpers.js';

let dir: string;
let h: SessionHarness;
let seen: SessionEvent[];

beforeEach(() => {
  dir = tempDir('sb-change-stream-');
  h = makeSessionHost(dir);
  seen = [];
  h.host.sessionEvents.subscribe((e) => seen.push(e));
});

afterEach(async () => {
  await h.host.shutdown();
  cleanup(dir);
});

const ID = 'cs';

/** Calls a fixture tool and returns its text. */
async function tool(name: string, args: Record<string, unknown> = {}): Promise<string> {
  const client = await h.sessions.client(ID);
  const result = await client.callTool({ name, arguments: args });
  const first = (result.content as { type: string; text?: string }[])[0];
  return first?.text ?? '';
}

/** The fixture's count of listen requests received and still open. */
async function listens(): Promise<{ opened: number; open: number }> {
  return JSON.parse(await tool('listens')) as { opened: number; open: number };
}

const count = (type: SessionEvent['type']): number => seen.filter((e) => e.type === type && e.id === ID).length;
const logTexts = (): string[] => h.sessions.logs(ID).map((l) => l.text);

describe('session change stream', () => {
  it('filters on what the server advertises and backs off 250 ms doubling', () => {
    expect(changeStreamFilter({ tools: { listChanged: true }, prompts: {}, resources: { listChanged: true } })).toEqual({
      toolsListChanged: true,
      resourcesListChanged: true,
    });
    expect(changeStreamFilter(undefined)).toEqual({});
    expect([1, 2, 3, 4].map(changeStreamBackoff)).toEqual([250, 500, 1000, 2000]);
    expect(CHANGE_STREAM_MAX_FAILURES).toBe(5);
  });

  it('one stream per session carries a prompts list change to the session events, negotiated and cached-discover alike', async () => {
    await addApproved(h.host, stdioServer(ID, localFixture('change-stream-server.ts')));
    expect(await h.sessions.connect(ID)).toMatchObject({ state: 'connected', protocolVersion: '2026-07-28', lifecycle: 'discover' });
    // The catalog lists the tools too; it no longer opens a stream of its own.
    await h.host.catalog.refresh(ID);
    expect(await listens()).toEqual({ opened: 1, open: 1 });

    await tool('add_prompt', { name: 'second' });
    await until(() => count('promptsListChanged') === 1, 10_000, 'promptsListChanged from the stream');
    expect(logTexts()).toContain("The server's prompts list changed");

    // The next connect adopts the cached discover result (no auto-opened stream): the session opens it itself.
    await h.sessions.disconnect(ID);
    await h.sessions.connect(ID);
    expect(logTexts()).toContain('Using the cached server/discover result');
    await h.host.catalog.refresh(ID);
    expect(await listens()).toEqual({ opened: 1, open: 1 });
    await tool('add_prompt', { name: 'third' });
    await until(() => count('promptsListChanged') === 2, 10_000, 'promptsListChanged on the cached-discover connect');
  });

  it('a stream the server ends is reopened, the gap is reported for every filtered kind, and the catalog re-lists', async () => {
    await addApproved(h.host, stdioServer(ID, localFixture('change-stream-server.ts')));
    await h.sessions.connect(ID);
    await h.host.catalog.refresh(ID);
    const listings = h.host.catalog.stats(ID).listings;
    expect(await listens()).toEqual({ opened: 1, open: 1 });
    seen.length = 0;

    expect(await tool('end_streams')).toBe('1');
    await until(
      () => count('toolsListChanged') === 1 && count('promptsListChanged') === 1 && count('resourcesListChanged') === 1,
      10_000,
      'gap events',
    );
    expect(await listens()).toEqual({ opened: 2, open: 1 });
    expect(logTexts()).toContain('The change stream ended (graceful); reopening it');
    expect(logTexts()).toContain('Reopened the change stream; re-listing in case a change was missed');
    await until(() => h.host.catalog.stats(ID).listings > listings, 10_000, 'the catalog re-listing after the gap');

    // The reopened stream carries changes as the first did.
    await tool('add_prompt', { name: 'after-gap' });
    await until(() => count('promptsListChanged') === 2, 10_000, 'a change on the reopened stream');

    // Closing the session closes the stream; nothing reopens it.
    // Disconnect resolves once the child has exited, so the stream has ended by then; a keeper that reopened would
    // have logged the end within the same turn (before its reopen pause), so one turn is all there is to wait.
    await h.sessions.disconnect(ID);
    await new Promise((r) => setImmediate(r));
    expect(logTexts().filter((t) => t.startsWith('The change stream ended'))).toHaveLength(1);
  });
});
