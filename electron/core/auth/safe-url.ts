// The one check every authorization URL passes before it may reach a browser or the screen.
import { isLoopbackHost } from '../../../shared/config.js';
import { AppError } from '../../../shared/errors.js';

/** Hostnames after WHATWG parsing: ASCII labels (IDN already in punycode), IPv4, or a bracketed IPv6 literal. */
const HOSTNAME = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.?$|^\[[0-9a-f:.]+\]$/;

/**
 * Parses an authorization URL with `new URL` and refuses anything that is not plain https (http only for a
 * loopback host), carries a user name or password, contains control characters or whitespace, or has a host name
 * with characters a DNS name cannot hold. Returns the parsed URL; throws AppError `url_refused` otherwise.
 * The message never repeats the raw input (it may be attacker-made). `subject` names the URL in messages (the
 * identity provider's URLs of Cross-App Access pass the same check, as they receive the user's ID token).
 */
export function checkAuthorizationUrl(raw: string, serverId?: string, subject = 'The authorization URL'): URL {
  const ids = serverId !== undefined ? { serverId } : {};
  if (/[\u0000-\u0020\u007f-\u009f\u2028\u2029]/.test(raw)) {
    throw new AppError('url_refused', `${subject} contains control characters or spaces and was refused`, ids);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError('url_refused', `${subject} is not a valid URL and was refused`, ids);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new AppError('url_refused', `${subject} uses the scheme "${url.protocol.slice(0, 20)}"; only https is allowed`, ids);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new AppError('url_refused', `${subject} uses plain http to a host that is not this machine; only https is allowed`, ids);
  }
  if (url.username !== '' || url.password !== '') {
    throw new AppError('url_refused', `${subject} carries a user name or password and was refused`, ids);
  }
  if (!HOSTNAME.test(url.hostname)) {
    throw new AppError('url_refused', `${subject} has a host name with characters a DNS name cannot hold and was refused`, ids);
  }
  return url;
}
