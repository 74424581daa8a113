// Whether an MCP server runs on this machine: a stdio child always does; an http(s) server does when its URL's host
// is loopback. Addresses a server hands out that point at this machine (OAuth endpoints, an app's CSP origins) are
// accepted only from a server on this machine: from anywhere else they would aim at the person's own computer.
// Likewise addresses on a private network are accepted only from a server that is itself on one (or on this machine).
import type { TransportConfig } from '../../../shared/config.js';
import { hostReach, type HostReach } from './private-host.js';

/** True when the URL's host is this machine (loopback). */
export function urlOnThisMachine(url: URL): boolean {
  return hostReach(url.hostname) === 'loopback';
}

/** Where the MCP server of this transport runs: a stdio child on this machine; an http(s) server where its host is. */
export function serverReach(transport: TransportConfig): HostReach {
  if (transport.type === 'stdio') return 'loopback';
  try {
    return hostReach(new URL(transport.url).hostname);
  } catch {
    return 'public';
  }
}

/** True when the MCP server of this transport runs on this machine. */
export function serverOnThisMachine(transport: TransportConfig): boolean {
  return serverReach(transport) === 'loopback';
}
