// Server data is untrusted text: a name, a description, a payload, an error message or a link may carry characters
// that act on a terminal, reorder or hide what is shown, or make one address look like another. This module is the
// one list of those characters, per context, used by the core and the renderer alike:
//   - UNSAFE_IN_TEXT: never rendered raw in text shown to the person (stripped, or shown as visible escapes where the
//     text must stay faithful). Tab and line feed are layout there and are kept.
//   - UNSAFE_IN_LINE: never raw in one line (a log line, a terminal line, an error message): the text set plus tab
//     and line feed.
//   - UNSAFE_IN_URL: refuse a URL that holds any of them raw: the line set plus the blanks that imitate a space.
// Whether a character is dropped or shown escaped is the call site's choice; which characters are unsafe is not.
// Every range says why it is here; test/shared/untrusted-text.test.ts checks every code point of every set.

/** A run of code points in a character set, and why the run is in it. */
export interface CodeRange {
  /** First code point of the run. */
  readonly first: number;
  /** Last code point of the run (inclusive). */
  readonly last: number;
  /** Why these characters are unsafe in untrusted text. */
  readonly why: string;
}

const hex = (n: number): string => n.toString(16).padStart(4, '0');

/** A named set of code points, each run documented, with the operations its call sites need. */
export class CharSet {
  readonly #any: RegExp;
  readonly #each: RegExp;

  constructor(
    /** What the set is for (shown in test names). */
    readonly name: string,
    /** Its runs of code points, each with the reason. */
    readonly ranges: readonly CodeRange[],
  ) {
    const body = ranges.map((r) => (r.first === r.last ? `\\u{${hex(r.first)}}` : `\\u{${hex(r.first)}}-\\u{${hex(r.last)}}`)).join('');
    this.#any = new RegExp(`[${body}]`, 'u');
    this.#each = new RegExp(`[${body}]`, 'gu');
  }

  /** True when `codePoint` is in the set. */
  includes(codePoint: number): boolean {
    return this.ranges.some((r) => codePoint >= r.first && codePoint <= r.last);
  }

  /** True when `text` holds any character of the set. */
  foundIn(text: string): boolean {
    return this.#any.test(text);
  }

  /** `text` with every character of the set replaced by `by` (a string, or a function of the character). */
  replaceIn(text: string, by: string | ((char: string) => string)): string {
    return typeof by === 'string' ? text.replace(this.#each, () => by) : text.replace(this.#each, by);
  }
}

const TAB_AND_LINE_FEED: CodeRange = {
  first: 0x09,
  last: 0x0a,
  why: 'Tab and line feed: layout in multi-line text, but in one line they start a new line or column that can pass for ours',
};

const SHOWN_TEXT_RANGES: readonly CodeRange[] = [
  {
    first: 0x00,
    last: 0x08,
    why: 'C0 controls: NUL cuts text short for C code, BEL and BS act on terminals; none is printable',
  },
  {
    first: 0x0b,
    last: 0x1f,
    why: 'C0 controls: ESC starts terminal sequences (colours, window title, clearing), CR returns to the line start to overwrite it; none is printable',
  },
  {
    first: 0x7f,
    last: 0x9f,
    why: 'DEL and the C1 controls: U+009B is a one-character CSI for some terminals, U+0085 a line break for some readers; none is printable',
  },
  { first: 0x061c, last: 0x061c, why: 'Arabic letter mark: an invisible bidi mark that reorders the text around it' },
  {
    first: 0x200b,
    last: 0x200d,
    why: 'Zero-width space, non-joiner and joiner: invisible, so two different names look the same or a word hides a split',
  },
  { first: 0x200e, last: 0x200f, why: 'Left-to-right and right-to-left marks: invisible bidi marks that reorder the text around them' },
  {
    first: 0x2028,
    last: 0x2029,
    why: 'Line and paragraph separators: a line break wherever they are rendered, so one line of server text can pass for two',
  },
  {
    first: 0x202a,
    last: 0x202e,
    why: 'Bidi embeddings, pop and overrides: reorder what follows, so "exe.txt" can read "txt.exe" (Trojan Source)',
  },
  {
    first: 0x2060,
    last: 0x2065,
    why: 'Word joiner and invisible operators (U+2065 is reserved and default-ignorable): invisible inside a word or a name',
  },
  { first: 0x2066, last: 0x2069, why: 'Bidi isolates and pop: reorder text like the overrides do (Trojan Source)' },
  {
    first: 0x206a,
    last: 0x206f,
    why: 'Deprecated format controls (symmetric swapping, Arabic shaping, digit shapes): invisible, and change how nearby text renders',
  },
  { first: 0xfeff, last: 0xfeff, why: 'Zero-width no-break space (byte order mark): invisible' },
  { first: 0xfff9, last: 0xfffb, why: 'Interlinear annotation anchor, separator and terminator: may hide the text between them' },
];

const URL_BLANK_RANGES: readonly CodeRange[] = [
  {
    first: 0x20,
    last: 0x20,
    why: 'Space: a parser drops or encodes it, so the address opened differs from the one shown; a real URL sends %20',
  },
  { first: 0xa0, last: 0xa0, why: 'No-break space: looks like a space' },
  { first: 0x115f, last: 0x1160, why: 'Hangul choseong and jungseong fillers: render as blanks' },
  { first: 0x180e, last: 0x180e, why: 'Mongolian vowel separator: invisible in most fonts' },
  { first: 0x3000, last: 0x3000, why: 'Ideographic space: looks like a space' },
  { first: 0x3164, last: 0x3164, why: 'Hangul filler: renders as a blank' },
  { first: 0xffa0, last: 0xffa0, why: 'Halfwidth Hangul filler: renders as a blank' },
];

const byFirst = (ranges: readonly CodeRange[]): CodeRange[] => [...ranges].sort((a, b) => a.first - b.first);

/** Characters never rendered raw in untrusted text shown to the person (tab and line feed are kept as layout). */
export const UNSAFE_IN_TEXT = new CharSet('unsafe in shown text', SHOWN_TEXT_RANGES);

/** Characters never raw in one line of a log, a terminal or an error message: the text set plus tab and line feed. */
export const UNSAFE_IN_LINE = new CharSet('unsafe in one line', byFirst([TAB_AND_LINE_FEED, ...SHOWN_TEXT_RANGES]));

/** Characters that make a URL from a server refused: the line set plus space and the blanks that imitate one. */
export const UNSAFE_IN_URL = new CharSet('refused in a URL', byFirst([TAB_AND_LINE_FEED, ...SHOWN_TEXT_RANGES, ...URL_BLANK_RANGES]));

// Terminal escape sequences (CSI and OSC), removed whole so no "[31m" is left behind when the ESC goes.
const ANSI_SEQUENCE = /\u001B(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001B]*(?:\u0007|\u001B\\)?)/g;

/** Untrusted text made inert by removal: terminal escape sequences, then every UNSAFE_IN_TEXT character. */
export function stripUnsafe(text: string): string {
  return UNSAFE_IN_TEXT.replaceIn(text.replace(ANSI_SEQUENCE, ''), '');
}

/** A character as JSON escapes (`\u202e`; a pair of them beyond the BMP), valid inside a JSON string. */
export function jsonEscape(char: string): string {
  let out = '';
  for (let i = 0; i < char.length; i++) out += `\\u${hex(char.charCodeAt(i))}`;
  return out;
}

/** A character as a brace escape (`\u{202e}`), the form shown in catalog names and descriptions. */
export function braceEscape(char: string): string {
  return `\\u{${char.codePointAt(0)!.toString(16)}}`;
}

/** Untrusted text kept faithful but inert: every UNSAFE_IN_TEXT character shown as its JSON escape (JSON stays valid). */
export function escapeAsJson(text: string): string {
  return UNSAFE_IN_TEXT.replaceIn(text, jsonEscape);
}
