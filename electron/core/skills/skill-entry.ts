// Admission of one `Skill` entry from `skills/list` or `skills/get`: every field is untrusted server data, so an
// entry is checked whole (shape, uri, name/path agreement, manifest digests and sizes, the per-skill budgets) and
// either admitted as a bounded record or refused with a reason the person can read. Nothing here reads a file.
import { createHash } from 'node:crypto';
import type { Limits } from '../../../shared/config.js';
import type { SkillField, SkillFileView } from '../../../shared/domains/skills.js';
import { isObject } from '../json.js';
import { sanitizeText, truncate } from '../text.js';

/** The extension id servers declare under `capabilities.extensions`. */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** Spec limits every host must accept; a manifest over either is refused before any read. */
export const SKILL_MAX_FILES = 512;
/** Sum of declared sizes per skill (16 MiB). */
export const SKILL_MAX_TOTAL_BYTES = 16 * 1024 * 1024;
/** A frontmatter over this many bytes of JSON is refused (it is shown and compared whole). */
const MAX_FRONTMATTER_BYTES = 64 * 1024;
/** Nesting deeper than this in the frontmatter is refused. */
const MAX_FRONTMATTER_DEPTH = 8;
const MAX_URI = 8192;
const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** An admitted entry: the manifest as the server sent it (for verification) plus bounded display fields. */
export interface AdmittedSkill {
  uri: string;
  /** Skill root (the SKILL.md uri without `/SKILL.md`). */
  root: string;
  skillPath: string;
  name: string;
  description: string;
  license?: string;
  allowedTools?: string;
  fields: SkillField[];
  /** The verbatim frontmatter (bounded in size and depth), compared with the SKILL.md on read. */
  frontmatter: Record<string, unknown>;
  files: SkillFileView[] | 'dynamic';
  totalBytes: number;
  /** The approval binding: SHA-256 over every (uri, digest) pair; undefined for dynamic skills. */
  fingerprint?: string;
}

const shown = (s: string, max: number): string => truncate(sanitizeText(s), max);

function depth(v: unknown, d = 0): number {
  if (d > MAX_FRONTMATTER_DEPTH) return d;
  if (Array.isArray(v)) return Math.max(d, ...v.map((x) => depth(x, d + 1)));
  if (isObject(v)) return Math.max(d, ...Object.values(v).map((x) => depth(x, d + 1)));
  return d;
}

/** Splits `scheme://a/b/c/SKILL.md` into root and skill path, or explains why it is not a skill uri. */
function parseSkillUri(uri: string): { root: string; skillPath: string } | string {
  if (!uri.endsWith('/SKILL.md')) return 'its uri does not end in /SKILL.md';
  const m = /^([a-z][a-z0-9+.-]*):\/\/(.+)\/SKILL\.md$/i.exec(uri);
  if (m === null || m[2] === undefined) return 'its uri has no skill path';
  return { root: uri.slice(0, -'/SKILL.md'.length), skillPath: m[2] };
}

/** SHA-256 over the sorted (uri, digest) pairs: what an approval binds to. */
export function manifestFingerprint(files: readonly { uri: string; digest: string }[]): string {
  const lines = files.map((f) => `${f.uri}\u0000${f.digest}`).sort();
  return createHash('sha256').update(lines.join('\n'), 'utf8').digest('hex');
}

/** Checks one raw entry; returns the admitted skill or the reason it is skipped. */
export function admitSkill(raw: unknown, limits: Limits): AdmittedSkill | { reason: string; uri?: string } {
  if (!isObject(raw)) return { reason: 'An entry that is not an object was skipped' };
  const uri = raw['uri'];
  if (typeof uri !== 'string' || uri.length === 0) return { reason: 'An entry without a uri was skipped' };
  if (uri.length > MAX_URI) return { reason: 'An entry with a uri over 8 KiB was skipped' };
  const label = shown(uri, 200);
  const refuse = (why: string): { reason: string; uri?: string } => ({ reason: `Skill ${label} was skipped: ${why}`, uri: label });
  // A uri is an identifier sent back verbatim: one with control or bidi characters is refused, not cleaned.
  if (sanitizeText(uri) !== uri) return refuse('its uri contains control or bidi characters');
  const parsed = parseSkillUri(uri);
  if (typeof parsed === 'string') return refuse(parsed);

  const fm = raw['frontmatter'];
  if (!isObject(fm)) return refuse('it has no frontmatter object');
  if (typeof fm['name'] !== 'string' || typeof fm['description'] !== 'string') return refuse('its frontmatter lacks a name or description');
  const fmBytes = Buffer.byteLength(JSON.stringify(fm), 'utf8');
  if (fmBytes > MAX_FRONTMATTER_BYTES) return refuse(`its frontmatter is ${fmBytes} bytes (budget ${MAX_FRONTMATTER_BYTES})`);
  if (depth(fm) > MAX_FRONTMATTER_DEPTH) return refuse(`its frontmatter nests deeper than ${MAX_FRONTMATTER_DEPTH}`);
  const name = fm['name'];
  const last = parsed.skillPath.split('/').at(-1);
  if (last !== name) return refuse(`its name "${shown(name, 80)}" is not the last segment of its path`);
  if (Buffer.byteLength(fm['description'], 'utf8') > limits.descriptionBytes)
    return refuse(`its description is over ${limits.descriptionBytes} bytes`);

  const resources = raw['resources'];
  let files: SkillFileView[] | 'dynamic';
  let totalBytes = 0;
  if (resources === 'dynamic') files = 'dynamic';
  else if (!Array.isArray(resources)) return refuse('its entry has no resources (an array or "dynamic" is required)');
  else {
    if (resources.length > SKILL_MAX_FILES) return refuse(`it lists ${resources.length} files (budget ${SKILL_MAX_FILES})`);
    files = [];
    const seen = new Set<string>();
    for (const r of resources) {
      if (!isObject(r) || typeof r['uri'] !== 'string' || typeof r['digest'] !== 'string' || typeof r['size'] !== 'number')
        return refuse('a manifest entry lacks uri, digest or size');
      const fileUri = r['uri'];
      const size = r['size'];
      if (!Number.isSafeInteger(size) || size < 0) return refuse('a manifest entry has an invalid size');
      if (!DIGEST.test(r['digest'])) return refuse(`the digest of ${shown(fileUri, 200)} is not sha256:<64 hex>`);
      if (fileUri !== uri && !fileUri.startsWith(`${parsed.root}/`)) return refuse(`${shown(fileUri, 200)} is outside the skill`);
      if (sanitizeText(fileUri) !== fileUri || fileUri.length > MAX_URI) return refuse('a file uri contains unsafe characters');
      if (seen.has(fileUri)) return refuse(`${shown(fileUri, 200)} is listed twice`);
      seen.add(fileUri);
      if (size > limits.resourceBytes) return refuse(`${shown(fileUri, 200)} is ${size} bytes (file budget ${limits.resourceBytes})`);
      totalBytes += size;
      const path = fileUri.slice(parsed.root.length + 1);
      files.push({ uri: fileUri, path, size, digest: r['digest'], nestedSkill: path !== 'SKILL.md' && path.endsWith('/SKILL.md') });
    }
    if (!seen.has(uri)) return refuse('its manifest does not list its own SKILL.md');
    if (totalBytes > SKILL_MAX_TOTAL_BYTES) return refuse(`its files total ${totalBytes} bytes (budget ${SKILL_MAX_TOTAL_BYTES})`);
  }

  const known = new Set(['name', 'description', 'license', 'allowed-tools']);
  const fields: SkillField[] = Object.entries(fm)
    .filter(([k]) => !known.has(k))
    .slice(0, 64)
    .map(([k, v]) => ({ key: shown(k, 200), value: shown(JSON.stringify(v) ?? 'null', 2000) }));
  const license = typeof fm['license'] === 'string' ? shown(fm['license'], 200) : undefined;
  const tools = fm['allowed-tools'];
  const allowedTools =
    typeof tools === 'string' ? shown(tools, 2000) : Array.isArray(tools) ? shown(JSON.stringify(tools), 2000) : undefined;
  return {
    uri,
    root: parsed.root,
    skillPath: shown(parsed.skillPath, 2000),
    name: shown(name, 200),
    description: shown(fm['description'], limits.descriptionBytes),
    ...(license === undefined ? {} : { license }),
    ...(allowedTools === undefined ? {} : { allowedTools }),
    fields,
    frontmatter: fm,
    files,
    totalBytes,
    ...(files === 'dynamic' ? {} : { fingerprint: manifestFingerprint(files) }),
  };
}

/** Labels for a listing: the name alone when unique, the full skill path for every skill sharing a name. */
export function disambiguate(skills: readonly AdmittedSkill[]): Map<string, string> {
  const counts = new Map<string, number>();
  for (const s of skills) counts.set(s.name, (counts.get(s.name) ?? 0) + 1);
  return new Map(skills.map((s) => [s.uri, (counts.get(s.name) ?? 0) > 1 ? s.skillPath : s.name]));
}
