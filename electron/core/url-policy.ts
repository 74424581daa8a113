// The one URL policy for every address that came from a server and may be opened or shown: authorization URLs,
// URL-mode elicitations, links in results (MCP Apps' open-link, registry repository links and event webhooks reuse
// it). Both shells apply it the same way, before anything is opened, printed or shown.
import { domainToUnicode } from 'node:url';
import { isLoopbackHost } from '../../shared/config.js';
import { UNSAFE_IN_URL } from '../../shared/untrusted-text.js';

/** Longest URL accepted (authorization URLs carry PKCE, state and resource, well under this). */
export const MAX_URL_LENGTH = 16 * 1024;

/** An acceptable URL: the normalized address to open, a form to show, and what the person should be told. */
export interface UrlAccepted {
  ok: true;
  /** The parsed and normalized address (WHATWG href); this, and only this, is what gets opened. */
  url: string;
  /** The address for display: the host name decoded from punycode, everything else as in `url`. */
  display: string;
  /** The host as displayed (decoded), for highlighting. */
  host: string;
  /** Plain-words warnings to show beside it (plain http to this machine, an internationalized host name). */
  warnings: string[];
}

/** A refused URL: why, in words that never repeat the raw (attacker-made) input. */
export interface UrlRefused {
  ok: false;
  /** Always url_refused. */
  code: 'url_refused';
  /** Why it was refused, starting with the subject ("The link uses the scheme ..."). */
  reason: string;
}

/** The verdict of the URL policy. */
export type UrlVerdict = UrlAccepted | UrlRefused;

/** Hostnames after WHATWG parsing: ASCII labels (IDN already in punycode), IPv4, or a bracketed IPv6 literal. */
const HOSTNAME = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.?$|^\[[0-9a-f:.]+\]$/;

/**
 * Checks a URL from a server against the policy: https only (plain http only to this machine, with a warning), no
 * user name or password, no control, bidi or invisible characters or spaces anywhere in it (UNSAFE_IN_URL), a host name a DNS name can hold,
 * and an internationalized host shown decoded with a warning. `subject` names the URL in messages.
 */
export function checkExternalUrl(raw: string, subject = 'The link'): UrlVerdict {
  const refuse = (why: string): UrlRefused => ({ ok: false, code: 'url_refused', reason: `${subject} ${why}` });
  if (typeof raw !== 'string' || raw.length === 0) return refuse('is empty');
  if (raw.length > MAX_URL_LENGTH) return refuse(`is longer than ${MAX_URL_LENGTH} characters and was refused`);
  if (UNSAFE_IN_URL.foundIn(raw)) return refuse('contains control, bidi or invisible characters or spaces and was refused');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('is not a valid URL and was refused');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return refuse(`uses the scheme "${url.protocol.replace(/[^a-z0-9+.-]/gi, '').slice(0, 20)}:"; only https is allowed`);
  }
  const warnings: string[] = [];
  if (url.protocol === 'http:') {
    if (!isLoopbackHost(url.hostname)) return refuse('uses plain http to a host that is not this machine; only https is allowed');
    warnings.push('This address uses plain http to a program on this computer, not https.');
  }
  if (url.username !== '' || url.password !== '') return refuse('carries a user name or password and was refused');
  if (!HOSTNAME.test(url.hostname)) return refuse('has a host name with characters a DNS name cannot hold and was refused');
  let host = url.hostname;
  if (url.hostname.split('.').some((label) => label.startsWith('xn--'))) {
    const decoded = domainToUnicode(url.hostname);
    if (decoded === '' || UNSAFE_IN_URL.foundIn(decoded))
      return refuse('has an internationalized host name that does not decode cleanly and was refused');
    host = decoded;
    warnings.push(
      `The host name is internationalized: it reads "${decoded}" (sent as ${url.hostname}). Look-alike letters can imitate another site; check it is the one you expect.`,
    );
  }
  const display = host === url.hostname ? url.href : url.href.replace(`//${url.hostname}`, `//${host}`);
  return { ok: true, url: url.href, display, host, warnings };
}
