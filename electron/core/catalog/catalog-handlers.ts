// Contract handlers for catalog.* methods.
import type { Handlers } from '../handlers.js';
import type { Host } from '../host.js';

/** The catalog methods' handlers. */
export function catalogHandlers(host: Host): Pick<Handlers, `catalog.${string}` & keyof Handlers> {
  return {
    // The person's views also ask for the cards of servers that lost their secrets (the Server filter can pick them).
    'catalog.groups': async ({ includeMembers, includeUnavailable }) =>
      host.catalog.groups(includeMembers === true, { includeUnavailable: includeUnavailable === true }),
    'catalog.select': async (args) => host.catalog.select(args),
    'catalog.search': async (args) => host.catalog.search(args),
    // The person's view: a last-known tool of a server that lost its secrets opens, marked unavailable.
    'catalog.tool': async ({ name }) => host.catalog.tool(name, { includeUnavailable: true }),
    'catalog.refresh': ({ id }) => host.catalog.refresh(id),
    'catalog.approveTool': async ({ name, fingerprint }) => host.catalog.approveTool(name, fingerprint),
  };
}
