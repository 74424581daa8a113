// Keeps secrets out of the log: every secret value the app stores or reads (tokens, client secrets, secret env
// values) is registered and replaced wherever it appears, and well-known secret shapes (bearer tokens, JWTs,
// token/secret/password query and JSON fields, Authorization and Cookie headers) are masked even when unregistered.

/** What a secret is replaced with. */
export const REDACTED = '[redacted]';
/** Registered values shorter than this are not searched for (too likely to match ordinary text). */
export const MIN_SECRET_LENGTH = 6;
/** Registered values kept (the oldest are forgotten first). */
const MAX_SECRETS = 2000;

const SECRET_NAME = String.raw`(?:access_token|refresh_token|id_token|client_secret|client_assertion|code_verifier|code|password|passwd|secret|api[_-]?key|token|assertion|subject_token)`;
const PATTERNS: readonly RegExp[] = [
  // Authorization / Cookie header values, and bearer tokens anywhere.
  /\b(authorization|proxy-authorization|cookie|set-cookie|x-api-key)(\s*[:=]\s*)[^\r\n]+/gi,
  /\b(bearer|basic|dpop)(\s+)[A-Za-z0-9._~+/=-]{8,}/gi,
  // JWTs (three base64url parts, the first two starting with a JSON object).
  /eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g,
  // name=value in query strings and forms; "name": "value" in JSON.
  new RegExp(String.raw`\b(${SECRET_NAME})(=)[^&\s"']+`, 'gi'),
  new RegExp(String.raw`("${SECRET_NAME}"\s*)(:\s*)"(?:[^"\\]|\\.)*"`, 'gi'),
];

/** Masks registered secret values and well-known secret shapes in text. */
export class Redactor {
  readonly #secrets = new Set<string>();
  #matcher: RegExp | undefined;

  /** Registers a secret value; it is masked in everything redacted afterwards. */
  add(value: string | null | undefined): void {
    if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH || this.#secrets.has(value)) return;
    this.#secrets.add(value);
    if (this.#secrets.size > MAX_SECRETS) this.#secrets.delete(this.#secrets.values().next().value as string);
    this.#matcher = undefined;
  }

  /** The text with every registered secret and known secret shape masked. */
  redact(text: string): string {
    let out = text;
    if (this.#secrets.size > 0) {
      this.#matcher ??= new RegExp(
        [...this.#secrets]
          .sort((a, b) => b.length - a.length)
          .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('|'),
        'g',
      );
      out = out.replace(this.#matcher, REDACTED);
    }
    for (const pattern of PATTERNS) {
      out = out.replace(pattern, (_match: string, name: unknown, sep: unknown) =>
        typeof name === 'string' && typeof sep === 'string' ? `${name}${sep}${REDACTED}` : REDACTED,
      );
    }
    return out;
  }
}
