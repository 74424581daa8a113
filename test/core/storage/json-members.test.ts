// Reading one array member of a JSON file item by item: the items and other members come out as JSON.parse would
// give them, and any shape or syntax it does not recognise answers undefined (the caller then reads the file whole).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readArrayMember } from '../../../electron/core/storage/json-members.js';
import { cleanup, tempDir } from '../../shared/support/harness.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(cleanup));

function read(text: string | Buffer): { items: unknown[]; rest: Record<string, unknown> | undefined } {
  const dir = tempDir('sb-members-');
  dirs.push(dir);
  const file = join(dir, 'f.json');
  writeFileSync(file, text);
  const items: unknown[] = [];
  const rest = readArrayMember(file, 'entries', (item) => items.push(item));
  return { items, rest };
}

describe('readArrayMember', () => {
  it('gives each item and the other members as JSON.parse does, escapes and nesting included', () => {
    const value = {
      version: 1,
      entries: [
        { a: 'quote " and backslash \\', b: ['\\', '\\"', '"', '{[', ']}'], c: { d: [1, [2, [3]]] } },
        'a string ] with , brackets }',
        42,
        null,
        true,
        [],
        {},
        { emoji: 'ü 😀 \u2028' },
      ],
      meta: { nested: ['x', { y: '"}' }] },
    };
    for (const text of [JSON.stringify(value), JSON.stringify(value, null, 2), `\uFEFF ${JSON.stringify(value)}\n\n`]) {
      const { items, rest } = read(text);
      expect(items).toEqual(value.entries);
      expect(rest).toEqual({ version: 1, meta: value.meta });
    }
  });

  it('reads a file many chunks long, items crossing chunk ends and one item longer than several chunks', () => {
    const entries = Array.from({ length: 3000 }, (_, i) => ({ i, text: `item ${i} \\ "quoted" ${'é'.repeat(i % 300)}`, list: [i, [i]] }));
    entries.splice(1500, 0, { i: -1, text: `${'\\"'.repeat(200_000)}x`, list: [] });
    const value = { version: 1, entries, after: 'end' };
    const { items, rest } = read(JSON.stringify(value, null, 1));
    expect(items).toEqual(value.entries);
    expect(rest).toEqual({ version: 1, after: 'end' });
  });

  it('reads an empty array, and keeps a member named __proto__ as a member', () => {
    const { items, rest } = read('{"__proto__":{"polluted":1},"entries":[ ]}');
    expect(items).toEqual([]);
    expect(Object.getPrototypeOf(rest)).toBeNull();
    expect(rest?.['__proto__']).toEqual({ polluted: 1 });
  });

  it.each([
    ['truncated', '{"version":1,"entries":[{"callId"'],
    ['missing comma', '{"version":1,"entries":[{}{}]}'],
    ['trailing comma', '{"version":1,"entries":[{},]}'],
    ['invalid item', '{"version":1,"entries":[{"a":tru}]}'],
    ['text after the object', '{"version":1,"entries":[]} x'],
    ['not an object', '[1,2]'],
    ['no such member', '{"version":1}'],
    ['member not an array', '{"entries":{}}'],
    ['member twice', '{"entries":[],"entries":[]}'],
    ['other member twice', '{"v":1,"v":2,"entries":[]}'],
    ['unterminated string', '{"entries":["abc]}'],
    ['empty', ''],
  ])('answers undefined for a file it does not recognise: %s', (_why, text) => {
    expect(read(text).rest).toBeUndefined();
  });
});
