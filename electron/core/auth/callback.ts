// Validation of an authorization response, the same for a request that reached the loopback listener and for a
// redirect URL pasted from the browser's address bar (SSH / headless use).
import { timingSafeEqual } from 'node:crypto';
import { AppError } from '../../../shared/errors.js';
import { UNSAFE_IN_LINE } from '../../../shared/untrusted-text.js';

/** What a pending flow expects of its redirect. */
export interface ExpectedCallback {
  /** Server id, for errors. */
  serverId: string;
  /** http://127.0.0.1:PORT/callback */
  redirectUri: string;
  /** The state sent with the authorization request. */
  state: string;
  /** The authorization server's issuer, when known. */
  issuer?: string;
  /** Whether the server advertised authorization_response_iss_parameter_supported. */
  issRequired: boolean;
}

/** A callback's verdict. `consume` says whether the flow is over (state matched), successful or not. */
export type CallbackVerdict = { ok: true; code: string; iss?: string } | { ok: false; consume: boolean; error: AppError };

/** Blanks control, bidi and invisible characters (one line) and caps length: attacker-supplied text is only ever shown as plain text. */
export function plainText(text: string, max = 200): string {
  const cleaned = UNSAFE_IN_LINE.replaceIn(text, ' ').trim();
  return cleaned.length > max ? `${cleaned.slice(0, max)}…` : cleaned;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function single(params: URLSearchParams, name: string): string | undefined | null {
  const all = params.getAll(name);
  if (all.length > 1) return null;
  return all[0];
}

/**
 * Checks a redirect against the pending flow: exact redirect URI (scheme, host, port, path), exactly one `state`
 * equal to ours, RFC 9207 `iss` equal to the issuer when present (required when advertised), then `error` or
 * `code`. A wrong or missing state leaves the flow waiting (it may be someone else's request); anything after a
 * matching state ends the flow.
 */
export function checkCallback(raw: string | URL, expected: ExpectedCallback): CallbackVerdict {
  const ids = { serverId: expected.serverId };
  const refuse = (consume: boolean, message: string): CallbackVerdict => ({
    ok: false,
    consume,
    error: new AppError('auth_required', message, ids),
  });
  let url: URL;
  if (typeof raw === 'string') {
    const text = raw.trim();
    if (UNSAFE_IN_LINE.foundIn(text))
      return refuse(false, 'The pasted redirect URL contains control, bidi or invisible characters and was refused');
    try {
      url = new URL(text);
    } catch {
      return refuse(false, 'That is not a URL: paste the full address from the browser, starting with http://127.0.0.1');
    }
  } else url = raw;
  const want = new URL(expected.redirectUri);
  if (
    url.protocol !== want.protocol ||
    url.host !== want.host ||
    url.pathname !== want.pathname ||
    url.username !== '' ||
    url.password !== ''
  ) {
    return refuse(false, `The URL does not go to this sign-in's redirect address (${want.origin}${want.pathname})`);
  }
  const params = url.searchParams;
  const state = single(params, 'state');
  if (state === null) return refuse(false, 'The redirect carries more than one state parameter and was refused');
  if (state === undefined || state === '') return refuse(false, 'The redirect has no state parameter and was refused');
  if (!sameSecret(state, expected.state))
    return refuse(false, 'The redirect belongs to another sign-in (state does not match) and was refused');

  const iss = single(params, 'iss');
  if (iss === null) return refuse(true, 'The redirect carries more than one iss parameter and was refused');
  if (iss !== undefined && expected.issuer !== undefined && iss !== expected.issuer) {
    return refuse(true, 'The redirect names a different authorization server (iss does not match) and was refused');
  }
  if (iss === undefined && expected.issRequired) {
    return refuse(true, 'The authorization server promised an iss parameter but the redirect has none; refused');
  }
  const error = single(params, 'error');
  if (error !== undefined) {
    const description = single(params, 'error_description');
    const code = plainText(error ?? 'error', 60);
    const detail = typeof description === 'string' && description !== '' ? `: ${plainText(description)}` : '';
    return refuse(true, `The authorization server refused the sign-in (${code})${detail}`);
  }
  const code = single(params, 'code');
  if (code === null || code === undefined || code === '') return refuse(true, 'The redirect carries no authorization code');
  return { ok: true, code, ...(iss !== undefined ? { iss } : {}) };
}
