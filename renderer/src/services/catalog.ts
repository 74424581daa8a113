// Catalog calls into the core; the only place catalog actions reach the bridge.
import type { EventMap } from '../../../shared/contract';
import type { CatalogQuery } from '../../../shared/domains/catalog';
import { bridge } from '../bridge';

export const catalogService = {
  // With the cards of servers that lost their secrets: the person's views list those servers' last-known tools.
  groups: () => bridge().api['catalog.groups']({ includeUnavailable: true }),
  search: (query: CatalogQuery) => bridge().api['catalog.search'](query),
  tool: (name: string) => bridge().api['catalog.tool']({ name }),
  select: (args: { group?: string; tools?: string[] }) => bridge().api['catalog.select'](args),
  refresh: (id?: string) => bridge().api['catalog.refresh'](id === undefined ? {} : { id }),
  approve: (name: string, fingerprint: string) => bridge().api['catalog.approveTool']({ name, fingerprint }),
  onChanged: (listener: (payload: EventMap['catalog.changed']) => void) => bridge().on('catalog.changed', listener),
};
