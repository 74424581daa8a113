// The one untrusted-text rule: every code point of every set, checked against a list written out here (not derived
// from the module), and every former private copy of the rule now agreeing with it.
import { describe, expect, it } from 'vitest';
import {
  braceEscape,
  escapeAsJson,
  jsonEscape,
  stripUnsafe,
  UNSAFE_IN_LINE,
  UNSAFE_IN_TEXT,
  UNSAFE_IN_URL,
  type CharSet,
} from '../../shared/untrusted-text.js';
import { escapeUnsafe, prettyJson } from '../../shared/domains/catalog-text.js';
import { escapeControl, sanitizeText } from '../../electron/core/text.js';
import { checkExternalUrl } from '../../electron/core/url-policy.js';
import { inertJson, label } from '../../electron/core/events/payload.js';
import { checkCallback, plainText } from '../../electron/core/auth/callback.js';
import { cleanText, oneLine } from '../../renderer/src/ui/text.js';
import { visible } from '../../renderer/src/components/events/feed-logic.js';

type Run = [first: number, last: number];
const points = (runs: Run[]): number[] => runs.flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, i) => a + i));

// Unsafe wherever untrusted text is shown: C0 controls but tab and line feed, DEL and C1, the Arabic letter mark,
// zero-width characters and bidi marks, line and paragraph separators, bidi embeddings and overrides, word joiner
// and invisible operators (and the reserved U+2065), bidi isolates, deprecated format controls, BOM, annotations.
const TEXT = points([
  [0x00, 0x08],
  [0x0b, 0x1f],
  [0x7f, 0x9f],
  [0x061c, 0x061c],
  [0x200b, 0x200f],
  [0x2028, 0x2029],
  [0x202a, 0x202e],
  [0x2060, 0x2064],
  [0x2065, 0x2065],
  [0x2066, 0x2069],
  [0x206a, 0x206f],
  [0xfeff, 0xfeff],
  [0xfff9, 0xfffb],
]);
// One line: the same plus tab and line feed.
const LINE = [...TEXT, 0x09, 0x0a];
// A URL: the same plus space and the blanks that imitate one.
const URL_BLANKS = [0x20, 0xa0, 0x115f, 0x1160, 0x180e, 0x3000, 0x3164, 0xffa0];
const URL = [...LINE, ...URL_BLANKS];

const hex = (cp: number): string => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
const isSurrogate = (cp: number): boolean => cp >= 0xd800 && cp <= 0xdfff;

describe.each([
  ['UNSAFE_IN_TEXT', UNSAFE_IN_TEXT, TEXT],
  ['UNSAFE_IN_LINE', UNSAFE_IN_LINE, LINE],
  ['UNSAFE_IN_URL', UNSAFE_IN_URL, URL],
] as [string, CharSet, number[]][])('%s', (_name, set, listed) => {
  const want = new Set(listed);

  it('holds exactly the listed code points of the BMP (and none beyond it)', () => {
    const wrong: string[] = [];
    for (let cp = 0; cp <= 0xffff; cp++) {
      const expected = want.has(cp);
      if (set.includes(cp) !== expected) wrong.push(`${hex(cp)} includes`);
      if (!isSurrogate(cp) && set.foundIn(`a${String.fromCodePoint(cp)}b`) !== expected) wrong.push(`${hex(cp)} foundIn`);
    }
    for (const cp of [0x1f600, 0xe0041, 0x10ffff]) if (set.includes(cp)) wrong.push(`${hex(cp)} includes`);
    expect(wrong).toEqual([]);
  });

  it('replaces every listed character and nothing else', () => {
    for (const cp of listed) expect(set.replaceIn(`a${String.fromCodePoint(cp)}b`, '_'), hex(cp)).toBe('a_b');
    expect(set.replaceIn('plain ASCII, é, 中文, 😀', '_')).toBe(
      set === UNSAFE_IN_URL ? 'plain_ASCII,_é,_中文,_😀' : 'plain ASCII, é, 中文, 😀',
    );
  });

  it('says why each run is in it, in order and without overlaps', () => {
    let last = -1;
    for (const r of set.ranges) {
      expect(r.why.length, hex(r.first)).toBeGreaterThan(10);
      expect(r.first).toBeGreaterThan(last);
      expect(r.last).toBeGreaterThanOrEqual(r.first);
      last = r.last;
    }
  });
});

describe('the sets nest by context', () => {
  it('the disputed characters (U+061C, U+2060-2064, U+2028/2029) are unsafe in every context', () => {
    for (const cp of [0x061c, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0x2028, 0x2029])
      for (const set of [UNSAFE_IN_TEXT, UNSAFE_IN_LINE, UNSAFE_IN_URL]) expect(set.includes(cp), `${set.name} ${hex(cp)}`).toBe(true);
  });

  it('text ⊂ line ⊂ URL', () => {
    for (const cp of TEXT) expect(UNSAFE_IN_LINE.includes(cp), hex(cp)).toBe(true);
    for (const cp of LINE) expect(UNSAFE_IN_URL.includes(cp), hex(cp)).toBe(true);
  });
});

describe('the operations', () => {
  it('stripUnsafe removes terminal sequences whole and keeps tab and line feed', () => {
    expect(stripUnsafe('a\u001b[31mred\u001b[0m b\u001b]0;title\u0007c\td\ne\u202ef')).toBe('ared b' + 'c\td\nef');
  });

  it('escapeAsJson keeps JSON valid and the text faithful', () => {
    const json = escapeAsJson(JSON.stringify({ k: 'a\u202eb\u2028c\u061cd\u2060e' }));
    expect(json).toBe('{"k":"a\\u202eb\\u2028c\\u061cd\\u2060e"}');
    expect(JSON.parse(json)).toEqual({ k: 'a\u202eb\u2028c\u061cd\u2060e' });
  });

  it('the escapes', () => {
    expect(jsonEscape('\u202e')).toBe('\\u202e');
    expect(jsonEscape('\u{e0041}')).toBe('\\udb40\\udc41');
    expect(braceEscape('\u0007')).toBe('\\u{7}');
    expect(braceEscape('\u{e0041}')).toBe('\\u{e0041}');
  });
});

// Each former private copy of the rule, now one rule: the same characters are neutralised everywhere.
describe('every call site agrees', () => {
  const expected = {
    serverId: 'fx',
    redirectUri: 'http://127.0.0.1:4567/callback',
    state: 'S'.repeat(43),
    issRequired: false,
  };

  it('the core and the renderer strip the same characters from shown text (tab and line feed kept)', () => {
    for (const cp of TEXT) {
      const c = String.fromCodePoint(cp);
      expect(sanitizeText(`a${c}b`), `core ${hex(cp)}`).toBe('ab');
      // The renderer turns CR and CRLF into LF first (layout), then strips like the core.
      expect(cleanText(`a${c}b`), `renderer ${hex(cp)}`).toBe(cp === 0x0d ? 'a\nb' : 'ab');
      expect(label(`a${c}b`), `label ${hex(cp)}`).toBe('ab');
    }
    for (const c of ['\t', '\n']) {
      expect(sanitizeText(`a${c}b`)).toBe(`a${c}b`);
      expect(cleanText(`a${c}b`)).toBe(`a${c}b`);
      expect(oneLine(`a${c}b`)).toBe('a b');
    }
    expect(cleanText('\u001b[31mred\u001b[0m')).toBe(sanitizeText('\u001b[31mred\u001b[0m'));
  });

  it('catalog text, the events feed and stored payloads show the same characters escaped', () => {
    for (const cp of TEXT) {
      const c = String.fromCodePoint(cp);
      const u = `\\u${cp.toString(16).padStart(4, '0')}`;
      expect(escapeUnsafe(`a${c}b`), `catalog ${hex(cp)}`).toBe(`a\\u{${cp.toString(16)}}b`);
      expect(visible(`a${c}b`), `feed ${hex(cp)}`).toBe(`a${u}b`);
      expect(inertJson(`a${c}b`), `payload ${hex(cp)}`).toBe(`a${u}b`);
    }
    expect(prettyJson({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(visible('a\tb\nc')).toBe('a\tb\nc');
  });

  it('log lines and sign-in error text treat the same characters, tab and line feed included, as unsafe in one line', () => {
    for (const cp of LINE) {
      const c = String.fromCodePoint(cp);
      expect(escapeControl(`a${c}b`), `log ${hex(cp)}`).not.toContain(c);
      expect(escapeControl(`a${c}b`), `log ${hex(cp)}`).toMatch(/^a\\.+b$/);
      expect(plainText(`a${c}b`), `auth ${hex(cp)}`).toBe('a b');
      const pasted = checkCallback(`http://127.0.0.1:4567/callback?state=${expected.state}&code=x${c}y`, expected);
      expect(pasted.ok, `pasted ${hex(cp)}`).toBe(false);
      if (!pasted.ok) expect(pasted.error.message).toMatch(/control, bidi or invisible characters/);
    }
    expect(plainText('a b')).toBe('a b');
  });

  it('the URL policy refuses every listed character, and nothing the shown-text rule keeps is refused for being unsafe text', () => {
    for (const cp of URL) {
      const v = checkExternalUrl(`https://example.com/a${String.fromCodePoint(cp)}b`);
      expect(v.ok, `url ${hex(cp)}`).toBe(false);
      if (!v.ok) expect(v.reason).toMatch(/control, bidi or invisible characters or spaces/);
    }
    expect(checkExternalUrl('https://example.com/a%20b').ok).toBe(true);
    for (const cp of URL_BLANKS) expect(sanitizeText(`a${String.fromCodePoint(cp)}b`), hex(cp)).toBe(`a${String.fromCodePoint(cp)}b`);
  });
});
