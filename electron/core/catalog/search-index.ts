// Ranked, typo-tolerant prefix and in-word search over tool names, titles and descriptions. One index per server, built when the
// server's snapshot is published; a query only walks sorted token tables, so it stays in the low milliseconds at
// 20,000 tools.

/** Annotation flags kept per tool for filtering. */
export const ANN_READ_ONLY = 1;
export const ANN_DESTRUCTIVE = 2;
export const ANN_IDEMPOTENT = 4;
export const ANN_OPEN_WORLD = 8;

/** What the index needs to know about one tool. */
export interface IndexInput {
  localName: string;
  originalName: string;
  title?: string | undefined;
  description?: string | undefined;
  flags: number;
}

const FIELD_NAME = 0;
const FIELD_TITLE = 1;
const FIELD_DESC = 2;
const FIELD_WEIGHT = [3, 2, 1] as const;
const DESC_CHARS = 1000;
/** Shortest query term also matched inside words (shorter ones would match nearly everything). */
const MIN_INFIX_CHARS = 3;

/** Lowercases, strips diacritics and splits into words (camelCase split, whole run kept too). */
export function tokenize(text: string, out: Set<string> = new Set()): Set<string> {
  const ascii = /^[\x00-\x7f]*$/.test(text);
  const runs = ascii
    ? text.split(/[^A-Za-z0-9]+/)
    : text
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .split(/[^\p{L}\p{N}]+/u);
  for (const run of runs) {
    if (run.length === 0) continue;
    const lower = run.toLowerCase();
    out.add(lower);
    // camelCase and letter/digit boundaries: only when the run mixes them
    if (ascii ? /^(?:[a-z]+|[A-Z][a-z]*|[0-9]+|[A-Z]+)$/.test(run) : false) continue;
    const parts = run.split(/(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u);
    if (parts.length > 1) for (const p of parts) if (p.length > 0) out.add(p.toLowerCase());
  }
  return out;
}

/** The searchable form of one server's published tools. */
export class ServerIndex {
  readonly serverId: string;
  /** Local names, sorted; a tool's position here is its id in the postings. */
  readonly names: string[];
  readonly flags: Uint8Array;
  /** Lowercased original names (for whole-name bonuses). */
  readonly lowerNames: string[];
  readonly #tokens: string[];
  /** Per token: tool id << 2 | field, best field per tool. */
  readonly #postings: Int32Array[];

  constructor(serverId: string, tools: readonly IndexInput[]) {
    this.serverId = serverId;
    const sorted = [...tools].sort((a, b) => (a.localName < b.localName ? -1 : a.localName > b.localName ? 1 : 0));
    this.names = sorted.map((t) => t.localName);
    this.lowerNames = sorted.map((t) => t.originalName.toLowerCase());
    this.flags = Uint8Array.from(sorted.map((t) => t.flags));
    const table = new Map<string, number[]>();
    const add = (token: string, id: number, field: number): void => {
      const list = table.get(token);
      const code = (id << 2) | field;
      if (!list) table.set(token, [code]);
      else if (list[list.length - 1]! >> 2 !== id) list.push(code);
    };
    sorted.forEach((t, id) => {
      // Lower field numbers win: add name tokens first, then title, then description, once per tool.
      const name = tokenize(t.originalName);
      for (const tok of name) add(tok, id, FIELD_NAME);
      if (t.title) for (const tok of tokenize(t.title)) add(tok, id, FIELD_TITLE);
      if (t.description) for (const tok of tokenize(t.description.slice(0, DESC_CHARS))) add(tok, id, FIELD_DESC);
    });
    this.#tokens = [...table.keys()].sort();
    this.#postings = this.#tokens.map((tok) => Int32Array.from(table.get(tok)!));
  }

  /** Number of tools. */
  get size(): number {
    return this.names.length;
  }

  /** Tokens that start with `term`: [from, to) in the sorted table. */
  #prefixRange(term: string): [number, number] {
    const toks = this.#tokens;
    let lo = 0;
    let hi = toks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (toks[mid]! < term) lo = mid + 1;
      else hi = mid;
    }
    let end = lo;
    while (end < toks.length && toks[end]!.startsWith(term)) end++;
    return [lo, end];
  }

  /**
   * Scores every tool against the terms (all must match). Calls `emit(id, score)` for each match.
   * Exact token match > prefix match > match inside a word (3+ characters) > one-typo prefix match; name > title >
   * description.
   */
  match(terms: readonly PreparedTerm[], flagMask: number, emit: (id: number, score: number) => void): void {
    const n = this.names.length;
    if (terms.length === 0) {
      for (let id = 0; id < n; id++) if (flagMask === 0 || (this.flags[id]! & flagMask) !== 0) emit(id, 0);
      return;
    }
    const total = new Float64Array(n);
    const hits = new Uint8Array(n);
    const termScore = new Float64Array(n);
    const termMark = new Int32Array(n);
    const touched: number[] = [];
    terms.forEach((term, j) => {
      const mark = j + 1;
      touched.length = 0;
      const visit = (tokenIndex: number, kind: number): void => {
        const postings = this.#postings[tokenIndex]!;
        for (let k = 0; k < postings.length; k++) {
          const code = postings[k]!;
          const id = code >> 2;
          if (hits[id] !== j) continue;
          const s = FIELD_WEIGHT[(code & 3) as 0 | 1 | 2] * kind;
          if (termMark[id] !== mark) {
            termMark[id] = mark;
            termScore[id] = s;
            touched.push(id);
          } else if (s > termScore[id]!) termScore[id] = s;
        }
      };
      const [from, to] = this.#prefixRange(term.text);
      for (let t = from; t < to; t++) visit(t, this.#tokens[t]!.length === term.text.length ? 1 : 0.75);
      if (term.fuzzy) {
        // One typo anywhere but the first character: only tokens sharing the first character are candidates.
        const toks = this.#tokens;
        const [lo, hi] = this.#prefixRange(term.text[0]!);
        for (let t = lo; t < hi; t++) {
          if (t === from && to > from) {
            t = to - 1;
            continue;
          }
          if (prefixWithinOneEdit(term, toks[t]!)) visit(t, 0.4);
        }
      }
      if (term.text.length >= MIN_INFIX_CHARS) {
        // Inside a word ("zone" in "timezone"): a scan of the token table, cheap next to the postings it leads to.
        const toks = this.#tokens;
        for (let t = 0; t < toks.length; t++) if (toks[t]!.indexOf(term.text, 1) > 0) visit(t, 0.5);
      }
      for (const id of touched) {
        hits[id] = j + 1;
        total[id] = total[id]! + termScore[id]!;
      }
    });
    const need = terms.length;
    const whole = terms.length === 1 ? terms[0]!.text : undefined;
    for (let id = 0; id < n; id++) {
      if (hits[id] !== need) continue;
      if (flagMask !== 0 && (this.flags[id]! & flagMask) === 0) continue;
      let score = total[id]!;
      if (whole !== undefined) {
        const name = this.lowerNames[id]!;
        if (name === whole) score += 4;
        else if (name.startsWith(whole)) score += 1;
      }
      emit(id, score);
    }
  }
}

/** A query term with the slices the typo check needs, computed once per query. */
export interface PreparedTerm {
  text: string;
  fuzzy: boolean;
  /** tails[i] = text.slice(i). */
  tails: string[];
}

/** Splits a query into terms (terms of 3+ characters tolerate one typo after their first character). */
export function prepareQuery(query: string): PreparedTerm[] {
  const runs = query
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u);
  const terms = [...new Set(runs.filter((r) => r.length > 0))];
  return terms
    .slice(0, 8)
    .map((text) => ({ text, fuzzy: text.length >= 3, tails: Array.from({ length: text.length + 2 }, (_, i) => text.slice(i)) }));
}

/** True when some prefix of `token` is within one edit (substitution, insertion, deletion, transposition) of the term. */
export function prefixWithinOneEdit(term: PreparedTerm, token: string): boolean {
  const q = term.text;
  let i = 0;
  const m = Math.min(q.length, token.length);
  while (i < m && q.charCodeAt(i) === token.charCodeAt(i)) i++;
  if (i === q.length) return true;
  const tails = term.tails;
  // substitution
  if (token.startsWith(tails[i + 1]!, i + 1) && token.length > i) return true;
  // extra character in the query
  if (token.startsWith(tails[i + 1]!, i)) return true;
  // missing character in the query
  if (token.length > i + 1 && token.startsWith(tails[i]!, i + 1)) return true;
  // transposition
  return (
    i + 1 < q.length &&
    q.charCodeAt(i) === token.charCodeAt(i + 1) &&
    q.charCodeAt(i + 1) === token.charCodeAt(i) &&
    token.startsWith(tails[i + 2]!, i + 2)
  );
}

/** One ranked hit across servers. */
export interface SearchHit {
  index: ServerIndex;
  id: number;
  score: number;
}

/**
 * Searches several server indexes (given in server-id order) and returns hits best first; ties keep server-id then
 * local-name order.
 */
export function searchIndexes(indexes: readonly ServerIndex[], query: string, flagMask: number): SearchHit[] {
  const terms = prepareQuery(query);
  let count = 0;
  for (const ix of indexes) count += ix.size;
  // key = (quantized score inverted) * 2^24 + global rank: one numeric sort instead of object comparisons.
  const keys: number[] = [];
  const bases: number[] = [];
  let base = 0;
  for (const ix of indexes) {
    bases.push(base);
    const b = base;
    ix.match(terms, flagMask, (id, score) => keys.push((100000 - Math.min(99999, Math.round(score * 100))) * 16777216 + b + id));
    base += ix.size;
  }
  if (count >= 16777216) throw new Error('too many tools to rank');
  const sorted = Float64Array.from(keys).sort();
  const out: SearchHit[] = new Array<SearchHit>(sorted.length);
  for (let k = 0; k < sorted.length; k++) {
    const key = sorted[k]!;
    const rank = key % 16777216;
    const score = (100000 - Math.floor(key / 16777216)) / 100;
    // ranks are not monotonic across the sorted keys: find the server by binary search
    let lo = 0;
    let hi = bases.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (bases[mid]! <= rank) lo = mid;
      else hi = mid - 1;
    }
    const index = indexes[lo]!;
    out[k] = { index, id: rank - bases[lo]!, score };
  }
  return out;
}
