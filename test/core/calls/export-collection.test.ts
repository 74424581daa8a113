// History entries as a collection file: what `switchboard run` reads (checked against the collection schema), by
// server and original tool name with the arguments made, the picked checks, and typed errors for what cannot be
// exported faithfully.
import { describe, expect, it } from 'vitest';
import { CollectionSchema } from '../../../electron/cli/collection/collection-file.js';
import { parsePath, valueAt } from '../../../shared/collections/json-path.js';
import { collectionFileName, exportCallsAsCollection, type CollectionSources } from '../../../electron/core/calls/export-collection.js';
import type { HistoryEntry } from '../../../shared/domains/calls.js';
import { AppError } from '../../../shared/errors.js';

function entry(over: Partial<HistoryEntry> & { callId: string }): HistoryEntry {
  return {
    serverId: 'srv',
    tool: 'mcp__srv__echo',
    originalName: 'echo',
    arguments: { text: 'hi' },
    startedAt: 0,
    durationMs: 1,
    status: 'ok',
    presentation: { isError: false, text: 'hi', truncated: false, media: [], notices: [], links: [], resources: [] },
    ...over,
  };
}

function sources(entries: HistoryEntry[], kept: Record<string, unknown> = {}): CollectionSources {
  return { entry: (id) => entries.find((e) => e.callId === id), structuredContent: (id) => kept[id] };
}

describe('calls.exportCollection', () => {
  it('writes each call by server and tool name with its arguments, checking its status and text, in the order given', () => {
    const a = entry({ callId: 'a', savedAs: 'Greets' });
    const b = entry({
      callId: 'b',
      originalName: 'fail',
      tool: 'mcp__srv__fail',
      status: 'error',
      presentation: { ...a.presentation, text: 'boom' },
    });
    const out = exportCallsAsCollection(sources([a, b]), { callIds: ['b', 'a'] });
    expect(out.fileName).toBe('saved-calls.collection.json');
    const parsed = CollectionSchema.parse(JSON.parse(out.text));
    expect(parsed).toEqual({
      name: 'Saved calls',
      calls: [
        { name: 'fail', tool: 'fail', server: 'srv', args: { text: 'hi' }, expect: { status: 'error' } },
        {
          name: 'Greets',
          tool: 'echo',
          server: 'srv',
          args: { text: 'hi' },
          expect: { status: 'ok', noIsError: true, textContains: 'hi' },
        },
      ],
    });
  });

  it('checks picked structured fields against the kept content (or the history copy), quoting odd names', () => {
    const a = entry({ callId: 'a', presentation: { ...entry({ callId: 'x' }).presentation, structured: '{"n":1,"odd key":[1,2]}' } });
    const fromHistory = JSON.parse(
      exportCallsAsCollection(sources([a]), { callIds: ['a'], assertions: [{ callId: 'a', fields: ['n', 'odd key'] }] }).text,
    ) as { calls: { expect: unknown }[] };
    expect(fromHistory.calls[0]!.expect).toEqual({ status: 'ok', noIsError: true, jsonPath: { '$.n': 1, '$["odd key"]': [1, 2] } });
    const fromKept = JSON.parse(
      exportCallsAsCollection(sources([a], { a: { n: 7 } }), { callIds: ['a'], assertions: [{ callId: 'a', fields: ['n'] }] }).text,
    ) as { calls: { expect: { jsonPath: unknown } }[] };
    expect(fromKept.calls[0]!.expect.jsonPath).toEqual({ '$.n': 7 });
    // Whatever the field is called, the runner's path reader finds it again.
    const odd = { 'a"b\\c\nd': true };
    const e = entry({ callId: 'o' });
    const paths = (
      JSON.parse(
        exportCallsAsCollection(sources([e], { o: odd }), { callIds: ['o'], assertions: [{ callId: 'o', fields: Object.keys(odd) }] }).text,
      ) as {
        calls: { expect: { jsonPath: Record<string, unknown> } }[];
      }
    ).calls[0]!.expect.jsonPath;
    for (const path of Object.keys(paths)) expect(valueAt(odd, parsePath(path)!)).toEqual({ found: true, value: true });
  });

  it('refuses, with typed errors, what it cannot export faithfully', () => {
    const code = (fn: () => unknown): string | undefined => {
      try {
        fn();
        return undefined;
      } catch (err) {
        return err instanceof AppError ? err.code : 'untyped';
      }
    };
    const cut = entry({ callId: 'c', arguments: {}, cut: { arguments: { bytes: 10, sha256: 'x' } } });
    expect(code(() => exportCallsAsCollection(sources([]), { callIds: ['nope'] }))).toBe('not_found');
    expect(code(() => exportCallsAsCollection(sources([cut]), { callIds: ['c'] }))).toBe('invalid_request');
    const plain = entry({ callId: 'p' });
    expect(code(() => exportCallsAsCollection(sources([plain]), { callIds: ['p'], assertions: [{ callId: 'p', fields: ['n'] }] }))).toBe(
      'invalid_request',
    );
    const structured = entry({ callId: 's', presentation: { ...plain.presentation, structured: '{"n":1}' } });
    expect(
      code(() => exportCallsAsCollection(sources([structured]), { callIds: ['s'], assertions: [{ callId: 's', fields: ['m'] }] })),
    ).toBe('invalid_request');
  });

  it('names the file after the collection', () => {
    expect(collectionFileName('Echo suite / smoke')).toBe('echo-suite-smoke.collection.json');
    expect(collectionFileName('***')).toBe('saved-calls.collection.json');
  });
});
