// Redaction for anything the protocol view shows: secret-named fields, bearer credentials in text, and the exact
// secret values Switchboard knows for the server (secret env values, tokens, client secrets), wherever they occur.
import { isObject } from '../json.js';

/** What replaces a redacted value. */
export const REDACTED = '[redacted]';

/** Field names whose values are secrets whatever they hold. */
const SECRET_KEY =
  /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api[-_]?key|apikey|password|passwd|secret|client[-_]?secret|access[-_]?token|refresh[-_]?token|id[-_]?token|bearer|token|code[-_]?verifier|assertion|client[-_]?assertion|private[-_]?key|subject[-_]?token)$/i;

/** Bearer / Basic credentials written inside text. */
const CREDENTIAL_IN_TEXT = /\b(Bearer|Basic|DPoP)\s+[A-Za-z0-9._~+/=-]{8,}/g;

/** Secret values shorter than this are not searched for (they would match ordinary text). */
export const MIN_SECRET_LENGTH = 6;

/** Deepest level redaction walks; anything deeper is replaced by a marker. */
const MAX_DEPTH = 64;

/** Replaces every known secret value and bearer credential inside one string. */
export function redactText(text: string, secrets: readonly string[]): string {
  // Most strings of a message are short words and ids: the credential pattern needs a scheme name, a blank and 8
  // characters, and its scheme names are case-sensitive, so a plain search rules it out without running it.
  let out = mayHoldCredential(text) ? text.replace(CREDENTIAL_IN_TEXT, (_m, scheme: string) => `${scheme} ${REDACTED}`) : text;
  for (const secret of secrets) if (secret.length >= MIN_SECRET_LENGTH && out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/** Shortest text CREDENTIAL_IN_TEXT can match ("Basic" or "DPoP…", a blank, 8 characters). */
const SHORTEST_CREDENTIAL = 'DPoP'.length + 1 + 8;

/** False when CREDENTIAL_IN_TEXT cannot match `text` (too short, or none of its scheme names occurs). */
function mayHoldCredential(text: string): boolean {
  return text.length >= SHORTEST_CREDENTIAL && (text.includes('Bearer') || text.includes('Basic') || text.includes('DPoP'));
}

/** A deep copy of a JSON value with secret-named fields and known secret values redacted (depth-bounded). */
export function redactValue(value: unknown, secrets: readonly string[], depth = 0): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (Array.isArray(value)) return value.map((v) => redactValue(v, secrets, depth + 1));
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const cleanKey = redactText(key, secrets);
    out[cleanKey] =
      SECRET_KEY.test(key) && v !== null && v !== '' && typeof v !== 'boolean' ? REDACTED : redactValue(v, secrets, depth + 1);
  }
  return out;
}
