// How prompts and resources of many servers share one gateway: prompts get the prefix `mcp__<server id>__`
// (like local tool names) and resource URIs are wrapped as `switchboard://<server id>/<original URI>` (resource
// templates the same way, so an expanded template is a wrapped URI). An original-names profile sees exactly one
// server and its names and URIs unchanged.

/** The scheme and authority prefix of wrapped resource URIs. */
export const WRAPPED_URI_PREFIX = 'switchboard://';

/** A prompt's gateway name. */
export function promptName(serverId: string, name: string, original: boolean): string {
  return original ? name : `mcp__${serverId}__${name}`;
}

/** The server and original name of a gateway prompt name among the visible servers, or undefined. */
export function parsePromptName(
  name: string,
  servers: readonly string[],
  original: boolean,
): { serverId: string; name: string } | undefined {
  if (original) return servers.length === 1 ? { serverId: servers[0]!, name } : undefined;
  let best: string | undefined;
  for (const id of servers) {
    if (name.startsWith(`mcp__${id}__`) && (best === undefined || id.length > best.length)) best = id;
  }
  return best === undefined ? undefined : { serverId: best, name: name.slice(`mcp__${best}__`.length) };
}

/** A resource URI (or URI template) as the gateway serves it. */
export function wrapUri(serverId: string, uri: string, original: boolean): string {
  return original ? uri : `${WRAPPED_URI_PREFIX}${serverId}/${uri}`;
}

/** The server and original URI of a gateway resource URI among the visible servers, or undefined. */
export function unwrapUri(uri: string, servers: readonly string[], original: boolean): { serverId: string; uri: string } | undefined {
  if (original) return servers.length === 1 ? { serverId: servers[0]!, uri } : undefined;
  if (!uri.startsWith(WRAPPED_URI_PREFIX)) return undefined;
  const rest = uri.slice(WRAPPED_URI_PREFIX.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) return undefined;
  const serverId = rest.slice(0, slash);
  if (!servers.includes(serverId)) return undefined;
  const inner = rest.slice(slash + 1);
  return inner.length > 0 ? { serverId, uri: inner } : undefined;
}
