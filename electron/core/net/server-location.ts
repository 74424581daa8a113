// Whether an MCP server runs on this machine: a stdio child always does; an http(s) server does when its URL's host
// is loopback. Addresses a server hands out that point at this machine (OAuth endpoints, an app's CSP origins) are
// accepted only from a server on this machine: from anywhere else they would aim at the person's own computer.
import type { TransportConfig } from '../../../shared/config.js';
import { hostReach } from './private-host.js';

/** True when the URL's host is this machine (loopback). */
export function urlOnThisMachine(url: URL): boolean {
  return hostReach(url.hostname) === 'loopback';
}

/** True when the MCP server of this transport runs on this machine. */
export function serverOnThisMachine(transport: TransportConfig): boolean {
  if (transport.type === 'stdio') return true;
  try {
    return urlOnThisMachine(new URL(transport.url));
  } catch {
    return false;
  }
}
