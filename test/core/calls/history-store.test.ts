// The call history file: writes are deferred off the call's path and coalesced, each entry is serialised once, a
// corrupt file or unreadable entries are kept aside with a notice (never dropped silently), and a call whose data
// cannot be serialised is still recorded.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppNotice } from '../../../shared/contract.js';
import type { HistoryEntry } from '../../../shared/domains/calls.js';
import { HISTORY_ENTRY_BYTES, HistoryStore } from '../../../electron/core/calls/history-store.js';
import { ARGUMENTS_MAX_DEPTH } from '../../../electron/core/ingress/arguments.js';
import { jsonDepth } from '../../../electron/core/ingress/depth.js';
import { unsendableReason } from '../../../electron/core/sendable.js';
import { cleanup, tempDir } from '../../shared/support/harness.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(cleanup));

function setup(): { dir: string; file: string; notices: AppNotice[]; open: () => HistoryStore } {
  const dir = tempDir('sb-history-');
  dirs.push(dir);
  const file = join(dir, 'call-history.json');
  const notices: AppNotice[] = [];
  return { dir, file, notices, open: () => new HistoryStore(file, { onNotice: (n) => notices.push(n), delayMs: 60_000 }) };
}

function entry(n: number, args: Record<string, unknown> = { n }): HistoryEntry {
  return {
    callId: `call-${n}`,
    serverId: 'fx',
    tool: 'mcp__fx__echo',
    originalName: 'echo',
    arguments: args,
    startedAt: 1_700_000_000_000 + n,
    durationMs: 3,
    status: 'ok',
    presentation: { isError: false, text: `result ${n}`, truncated: false, media: [], notices: [], links: [], resources: [] },
  };
}

const onDisk = (file: string): string[] =>
  (JSON.parse(readFileSync(file, 'utf8')) as { entries: HistoryEntry[] }).entries.map((e) => e.callId);

describe('call history file', () => {
  it('records without writing on the call path, then writes everything once on flush', async () => {
    const { file, open } = setup();
    const store = open();
    for (let i = 0; i < 5; i++) store.add(entry(i));
    store.save('call-2', 'Favourite');
    expect(existsSync(file)).toBe(false);
    await store.flush();
    expect(onDisk(file)).toEqual(['call-4', 'call-3', 'call-2', 'call-1', 'call-0']);
    const reopened = new HistoryStore(file);
    expect(reopened.get('call-2')?.savedAs).toBe('Favourite');
    expect(reopened.search({}).total).toBe(5);
  });

  it('moves a corrupt file aside with a notice and starts empty', () => {
    const { dir, file, notices, open } = setup();
    writeFileSync(file, '{"version":1,"entries":[{"callId"');
    expect(open().search({}).total).toBe(0);
    const aside = readdirSync(dir).filter((f) => f.startsWith('call-history.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, aside[0]!), 'utf8')).toBe('{"version":1,"entries":[{"callId"');
    expect(notices).toEqual([expect.objectContaining({ id: 'history-corrupt', message: expect.stringContaining(aside[0]!) })]);
  });

  it('keeps the file as it was before leaving out entries it cannot read', async () => {
    const { dir, file, notices, open } = setup();
    const original = JSON.stringify({ version: 1, entries: [entry(1), { callId: 'broken' }, entry(2)] });
    writeFileSync(file, original);
    const store = open();
    expect(store.search({}).entries.map((e) => e.callId)).toEqual(['call-1', 'call-2']);
    const aside = readdirSync(dir).filter((f) => f.startsWith('call-history.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, aside[0]!), 'utf8')).toBe(original);
    expect(notices[0]!.message).toMatch(/^1 call history entries could not be read/);
    store.add(entry(3));
    await store.flush();
    expect(onDisk(file)).toEqual(['call-3', 'call-1', 'call-2']);
  });

  it('reads an error code it does not know as internal, keeping the entry and its words', () => {
    const { file, notices, open } = setup();
    const known = { ...entry(1), status: 'error', error: { code: 'tool_error', message: 'known' } };
    const unknown = { ...entry(2), status: 'error', error: { code: 'from_another_version', message: 'kept words' } };
    writeFileSync(file, JSON.stringify({ version: 1, entries: [unknown, known] }));
    const store = open();
    expect(store.get('call-1')?.error).toEqual({ code: 'tool_error', message: 'known' });
    expect(store.get('call-2')?.error).toEqual({ code: 'internal', message: 'kept words' });
    expect(notices).toEqual([]);
  });

  it('still records a call whose arguments are nested too deeply to serialise', async () => {
    const { file, open } = setup();
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 20_000; i++) deep = { d: deep };
    const store = open();
    store.add(entry(1, deep));
    store.add(entry(2));
    await store.flush();
    expect(onDisk(file)).toEqual(['call-2', 'call-1']);
  });

  it('reports a write that fails instead of losing it silently', async () => {
    const { dir, notices } = setup();
    const folder = join(dir, 'data');
    const store = new HistoryStore(join(folder, 'call-history.json'), { onNotice: (n) => notices.push(n), delayMs: 60_000 });
    store.add(entry(1));
    // The data folder is replaced by a file under our feet: the write cannot happen.
    writeFileSync(folder, '');
    await expect(store.flush()).rejects.toMatchObject({ code: 'storage_failed' });
    expect(store.get('call-1')).toBeDefined();
  });

  it('never writes over a file it could not read', async () => {
    const { dir, notices } = setup();
    mkdirSync(join(dir, 'call-history.json'));
    const store = new HistoryStore(join(dir, 'call-history.json'), { onNotice: (n) => notices.push(n), delayMs: 1 });
    store.add(entry(1));
    await store.flush();
    expect(store.search({}).total).toBe(1);
    expect(notices).toEqual([expect.objectContaining({ id: 'history-corrupt', message: expect.stringMatching(/kept in memory only/) })]);
    expect(readdirSync(join(dir, 'call-history.json'))).toEqual([]);
  });
});

describe('app-made calls', () => {
  const fromApp = (n: number): HistoryEntry => ({
    ...entry(n),
    callId: `app-${n}`,
    origin: { kind: 'app', serverId: 'fx', tool: 'mcp__fx__hello' },
  });
  const ids = (store: HistoryStore): string[] => store.search({ limit: 100 }).entries.map((e) => e.callId);

  it('stay within their quota, the oldest app call going first, and never push out a person’s call', () => {
    const store = new HistoryStore(undefined, { limit: 6, appLimit: 3 });
    store.add(entry(1));
    store.add(entry(2));
    for (let i = 1; i <= 10; i++) store.add(fromApp(i));
    expect(ids(store)).toEqual(['app-10', 'app-9', 'app-8', 'call-2', 'call-1']);
    // The person's calls fill the rest; when the history is full, an app call gives way before a person's does.
    for (let i = 3; i <= 5; i++) store.add(entry(i));
    expect(ids(store)).toEqual(['call-5', 'call-4', 'call-3', 'app-10', 'call-2', 'call-1']);
    store.add(fromApp(11));
    expect(ids(store)).toEqual(['app-11', 'call-5', 'call-4', 'call-3', 'call-2', 'call-1']);
    // The app's last call gives way to the next person's call.
    store.add(entry(6));
    expect(ids(store)).toEqual(['call-6', 'call-5', 'call-4', 'call-3', 'call-2', 'call-1']);
  });

  it('saved by the person, are kept past the quota', () => {
    const store = new HistoryStore(undefined, { limit: 10, appLimit: 2 });
    store.add(fromApp(1));
    store.save('app-1', 'Keep');
    for (let i = 2; i <= 5; i++) store.add(fromApp(i));
    expect(ids(store)).toEqual(['app-5', 'app-4', 'app-1']);
  });
});

// Hostile arguments (issue 22, items 3 and 4): an entry deeper than a bridge can send, or larger than the history's
// budget, must neither break the history nor grow it without bound.
describe('history budgets', () => {
  const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

  it('loads a ~600-deep entry already on disk with its arguments cut, so the history stays sendable', () => {
    const { file, open } = setup();
    // Written as text: JSON.parse reads it, but a bridge refuses anything deeper than SEND_MAX_DEPTH.
    const deepArgs = `${'{"d":'.repeat(600)}1${'}'.repeat(600)}`;
    const deepEntry = JSON.stringify(entry(1)).replace('"arguments":{"n":1}', `"arguments":${deepArgs}`);
    writeFileSync(file, `{"version":1,"entries":[${deepEntry},${JSON.stringify(entry(2))}]}`);
    const answer = open().search({});
    expect(answer.total).toBe(2);
    expect(unsendableReason(answer)).toBeUndefined();
    const cut = answer.entries[0]!;
    expect(jsonDepth(cut.arguments)).toBeLessThanOrEqual(ARGUMENTS_MAX_DEPTH);
    expect(cut.presentation.notices.join(' ')).toMatch(/nested deeper than/);
  });

  it('keeps arguments over the per-entry budget as their size and sha-256 only', async () => {
    const { file, open } = setup();
    const big = { blob: 'x'.repeat(6 * 1024 * 1024) };
    const text = JSON.stringify(big);
    const store = open();
    store.add(entry(1, big));
    const kept = store.get('call-1')!;
    expect(kept.arguments).toEqual({});
    expect(kept.cut?.arguments).toEqual({ bytes: Buffer.byteLength(text), sha256: sha256(text) });
    expect(kept.presentation.notices.join(' ')).toMatch(/arguments .* were not kept/);
    await store.flush();
    expect(readFileSync(file).length).toBeLessThan(HISTORY_ENTRY_BYTES);
    expect(new HistoryStore(file).get('call-1')?.cut?.arguments?.sha256).toBe(sha256(text));
  });

  it('leaves out media data of a result over the per-entry budget, with its size and sha-256', () => {
    const { open } = setup();
    const e = entry(1);
    e.presentation.media = [{ kind: 'image', mimeType: 'image/png', data: 'A'.repeat(HISTORY_ENTRY_BYTES), bytes: 3 * 1024 }];
    const text = JSON.stringify(e.presentation);
    const store = open();
    store.add(e);
    const kept = store.get('call-1')!;
    expect(kept.presentation.media[0]!.data).toBe('');
    expect(kept.cut?.presentation).toEqual({ bytes: Buffer.byteLength(text), sha256: sha256(text) });
    expect(JSON.stringify(kept).length).toBeLessThan(HISTORY_ENTRY_BYTES);
  });

  it('keeps the whole history within its total budget, the oldest unsaved entries going first', () => {
    const { dir } = setup();
    const store = new HistoryStore(join(dir, 'h.json'), { delayMs: 60_000, totalBytes: 200 * 1024 });
    for (let i = 0; i < 25; i++) store.add(entry(i, { pad: 'p'.repeat(40 * 1024) }));
    const total = store.search({ limit: 1000 }).entries.reduce((n, e) => n + JSON.stringify(e).length, 0);
    expect(total).toBeLessThanOrEqual(200 * 1024);
    expect(store.get('call-24')).toBeDefined();
    expect(store.get('call-0')).toBeUndefined();
  });
});

describe('loading a long history file', () => {
  /** Newest first: person calls, app calls and saved calls mixed, well past every limit. */
  function mixed(n: number): HistoryEntry[] {
    return Array.from({ length: n }, (_, i) => ({
      ...entry(n - i),
      ...(i % 7 === 3 ? { origin: { kind: 'app' as const, serverId: 'fx', tool: 'ui_tool' } } : {}),
      ...(i % 11 === 5 ? { savedAs: `saved ${i}` } : {}),
      ...(i % 13 === 0 ? { arguments: { big: 'x'.repeat(2000) } } : {}),
    }));
  }

  it('keeps exactly what reading the whole file keeps (item by item; the whole-file read is the fallback)', () => {
    const { file } = setup();
    const entries = mixed(3000);
    const opts = { limit: 300, appLimit: 40, totalBytes: 400_000 };
    writeFileSync(file, JSON.stringify({ version: 1, entries }));
    const lean = new HistoryStore(file, opts).search({ limit: 10_000 });
    // A repeated member is valid JSON (the last one wins) that the item reader does not take: the whole-file read.
    writeFileSync(file, `{"version":1,${JSON.stringify({ version: 1, entries }).slice(1)}`);
    const whole = new HistoryStore(file, opts).search({ limit: 10_000 });
    expect(lean.total).toBeGreaterThan(100);
    expect(lean.entries.map((e) => e.callId)).toEqual(whole.entries.map((e) => e.callId));
    expect(lean.entries).toEqual(whole.entries);
    expect(lean.entries.some((e) => e.savedAs !== undefined)).toBe(true);
    expect(lean.entries.some((e) => e.origin?.kind === 'app')).toBe(true);
  });

  it('still reports entries it cannot read, and a file that is not a history', () => {
    const { file, notices, open } = setup();
    writeFileSync(file, JSON.stringify({ version: 1, entries: [entry(2), { callId: 'broken' }, entry(1)] }));
    expect(
      open()
        .search({})
        .entries.map((e) => e.callId),
    ).toEqual(['call-2', 'call-1']);
    expect(notices.map((n) => n.message).join('\n')).toMatch(/1 call history entries could not be read/);
    writeFileSync(file, JSON.stringify({ version: 2, entries: [entry(1)] }));
    notices.length = 0;
    expect(open().search({}).total).toBe(0);
    expect(notices.map((n) => n.message).join('\n')).toMatch(/not a call history/);
  });
});
