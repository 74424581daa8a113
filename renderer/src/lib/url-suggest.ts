// Suggests a scheme for a server address typed without one: http:// for this computer (loopback), https://
// for anything else, since plain http to another host is refused.
import { isLoopbackHost } from '../../../shared/config';

/** The address with a scheme added, or null when it already has one, is empty or is not address-shaped. */
export function suggestUrl(text: string): string | null {
  const raw = text.trim().replace(/^\/\//, '');
  if (raw === '' || /[\s@]/.test(raw) || /^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) return null;
  let host: string;
  try {
    host = new URL(`http://${raw}`).hostname;
  } catch {
    return null; // "javascript:…", "mailto:…" and other non-addresses do not parse as host[:port]
  }
  if (host === '' || !/^[a-z0-9.[\]:-]+$/i.test(host)) return null;
  return `${isLoopbackHost(host) ? 'http' : 'https'}://${raw}`;
}
