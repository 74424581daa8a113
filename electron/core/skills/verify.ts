// Verification of one read skill file against its manifest entry: the raw bytes' length and SHA-256, and for a
// skill's own SKILL.md its frontmatter against the entry's. A failure is a reason string; nothing here keeps bytes.
import { createHash } from 'node:crypto';
import { isObject } from '../json.js';

/** The raw bytes of a `resources/read` content item (text is UTF-8, blob is base64), or why there are none. */
export function rawBytes(content: unknown): { bytes: Buffer; mimeType?: string; text?: string } | string {
  if (!isObject(content)) return 'the server returned no content';
  const mimeType = typeof content['mimeType'] === 'string' ? content['mimeType'] : undefined;
  const mt = mimeType === undefined ? {} : { mimeType };
  if (typeof content['text'] === 'string') return { bytes: Buffer.from(content['text'], 'utf8'), text: content['text'], ...mt };
  if (typeof content['blob'] === 'string') return { bytes: Buffer.from(content['blob'], 'base64'), ...mt };
  return 'the content has neither text nor blob';
}

/** `sha256:<hex>` of some bytes. */
export function digestOf(bytes: Buffer): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** Compares bytes with a manifest entry; undefined when they match. */
export function checkBytes(bytes: Buffer, expected: { size: number; digest: string }): string | undefined {
  if (bytes.length !== expected.size) return `its size is ${bytes.length} bytes, the manifest says ${expected.size}`;
  const actual = digestOf(bytes);
  if (actual !== expected.digest) return `its SHA-256 is ${actual.slice(0, 19)}…, the manifest says ${expected.digest.slice(0, 19)}…`;
  return undefined;
}

function unquote(v: string): string {
  const t = v.trim();
  if (t.length >= 2 && ((t.startsWith('"') && t.endsWith('"')) || (t.startsWith("'") && t.endsWith("'")))) {
    if (t.startsWith('"')) {
      try {
        return JSON.parse(t) as string;
      } catch {
        return t.slice(1, -1);
      }
    }
    return t.slice(1, -1).replace(/''/g, "'");
  }
  return t;
}

/**
 * Compares a SKILL.md's frontmatter with the entry's. Without a YAML parser among the app's dependencies this checks
 * what an approval shows: the set of top-level keys, and `name` and `description` written as plain or quoted
 * scalars. Undefined when they agree.
 */
export function checkFrontmatter(text: string, entry: Record<string, unknown>): string | undefined {
  const m = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text);
  if (m === null || m[1] === undefined) return 'its SKILL.md has no frontmatter';
  const top = new Map<string, string>();
  for (const line of m[1].split(/\r?\n/)) {
    const kv = /^([^\s#:][^:]*):(?:\s+(.*))?$/.exec(line);
    if (kv?.[1] !== undefined) top.set(kv[1].trim(), kv[2] ?? '');
  }
  const keys = [...top.keys()].sort();
  const expected = Object.keys(entry).sort();
  if (keys.join('\u0000') !== expected.join('\u0000')) return "its SKILL.md frontmatter fields differ from the entry's";
  for (const k of ['name', 'description']) {
    const v = top.get(k);
    if (v === undefined || unquote(v) !== entry[k]) return `its SKILL.md frontmatter ${k} differs from the entry's`;
  }
  return undefined;
}
