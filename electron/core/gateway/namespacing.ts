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

/**
 * Every reading of a gateway prompt name among the visible servers, longest server id first. Server ids may
 * contain `__`, so `mcp__a__b__c` can be server `a`'s prompt `b__c` or server `a__b`'s prompt `c`; the caller
 * asks the candidates in this order.
 */
export function promptCandidates(name: string, servers: readonly string[], original: boolean): { serverId: string; name: string }[] {
  if (original) return servers.length === 1 ? [{ serverId: servers[0]!, name }] : [];
  return servers
    .filter((id) => name.startsWith(`mcp__${id}__`) && name.length > `mcp__${id}__`.length)
    .sort((x, y) => y.length - x.length)
    .map((id) => ({ serverId: id, name: name.slice(`mcp__${id}__`.length) }));
}

/** The first reading of a gateway prompt name (longest server id), or undefined. */
export function parsePromptName(
  name: string,
  servers: readonly string[],
  original: boolean,
): { serverId: string; name: string } | undefined {
  return promptCandidates(name, servers, original)[0];
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
