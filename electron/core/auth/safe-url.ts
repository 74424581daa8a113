// Authorization URLs go through the one URL policy (url-policy.ts) before they may reach a browser or the screen.
import { AppError } from '../../../shared/errors.js';
import { checkExternalUrl, type UrlAccepted } from '../url-policy.js';

/**
 * Checks an authorization URL with the URL policy (https only, http only for a loopback host, no user info, no
 * control, bidi or invisible characters, a DNS-shaped host; an internationalized host comes with a warning). Returns
 * the verdict; throws AppError `url_refused` otherwise. The message never repeats the raw input (it may be
 * attacker-made). `subject` names the URL in messages (the identity provider's URLs of Cross-App Access pass the
 * same check, as they receive the user's ID token).
 */
export function authorizationUrlVerdict(raw: string, serverId?: string, subject = 'The authorization URL'): UrlAccepted {
  const verdict = checkExternalUrl(raw, subject);
  if (!verdict.ok) throw new AppError('url_refused', verdict.reason, serverId !== undefined ? { serverId } : {});
  return verdict;
}

/** The same check, returning the parsed URL (for callers that only need to know it is acceptable). */
export function checkAuthorizationUrl(raw: string, serverId?: string, subject = 'The authorization URL'): URL {
  return new URL(authorizationUrlVerdict(raw, serverId, subject).url);
}
