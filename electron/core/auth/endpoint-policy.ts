// Where OAuth requests may go. The addresses come from metadata documents the MCP server and its authorization server
// publish (issuer, registration, token, authorization, device, revocation, JWKS endpoints…), so a hostile server
// could aim the host's own requests at this machine or the private network (cloud metadata services, routers, admin
// consoles). Every OAuth request is checked against the MCP server's own address before it is sent.
import { hostReach } from '../net/private-host.js';
import { urlOnThisMachine } from '../net/server-location.js';
import { displayUrl } from '../transports/http-guards.js';

/**
 * Why an OAuth request to `target` is refused, or null when it may go. Allowed: the MCP server's own origin, the
 * origins the person configured (a pinned issuer, an identity provider), and https to a public host. An endpoint on
 * this machine or a private network is allowed only when the MCP server itself runs on this machine.
 */
export function oauthEndpointProblem(target: string, serverUrl: string, trustedOrigins: readonly string[] = []): string | null {
  let url: URL;
  let server: URL;
  try {
    url = new URL(target);
    server = new URL(serverUrl);
  } catch {
    return 'The authorization server gave an address that is not a valid URL';
  }
  if (url.origin === server.origin || trustedOrigins.includes(url.origin)) return null;
  const reach = hostReach(url.hostname);
  if (reach !== 'public') {
    if (urlOnThisMachine(server)) return null;
    const where = reach === 'loopback' ? 'on this computer' : 'on a private network';
    return (
      `The authorization server's metadata points to ${displayUrl(url.href)}, ${where}; ` +
      `OAuth endpoints of a server that is not on this computer must be public https addresses, so the request was not sent`
    );
  }
  if (url.protocol !== 'https:') {
    return `The authorization server's metadata points to ${displayUrl(url.href)} over plain http; OAuth endpoints must use https, so the request was not sent`;
  }
  return null;
}

/** The origin of a configured address, or nothing when it is absent or not a URL. */
export function originOf(raw: string | undefined): string[] {
  if (raw === undefined || raw === '') return [];
  try {
    return [new URL(raw).origin];
  } catch {
    return [];
  }
}
