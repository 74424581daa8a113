// The one events feed filter, used by the core's events.feed pages and by the renderer's live arrivals.
import type { FeedEntryKind, FeedFilter } from './events.js';

/** What the filter looks at: the fields a stored entry and a shown entry share. */
export interface FilterableFeedEntry {
  /** Server id. */
  serverId: string;
  /** Entry kind. */
  kind: FeedEntryKind;
  /** When it happened (ms since epoch). */
  time: number;
  /** Subscription id. */
  subscriptionId?: string;
  /** Event type name. */
  name?: string;
  /** The server's event id. */
  eventId?: string;
  /** Payload JSON text. */
  data?: string;
  /** Plain-words message. */
  message?: string;
  /** Activity kind. */
  activity?: string;
  /** Resource URI. */
  uri?: string;
}

/**
 * Compiles `filter` into a predicate (for running over many entries): every given list narrows by membership, the
 * time window is inclusive, and the text matches case-insensitively anywhere in name, event id, message, URI,
 * server id, payload or activity kind.
 */
export function feedMatcher(filter: FeedFilter): (entry: FilterableFeedEntry) => boolean {
  const servers = filter.serverIds ? new Set(filter.serverIds) : undefined;
  const names = filter.names ? new Set(filter.names) : undefined;
  const subs = filter.subscriptionIds ? new Set(filter.subscriptionIds) : undefined;
  const kinds = filter.kinds ? new Set<FeedEntryKind>(filter.kinds) : undefined;
  const needle = filter.text?.trim().toLowerCase() ?? '';
  return (e) => {
    if (servers && !servers.has(e.serverId)) return false;
    if (kinds && !kinds.has(e.kind)) return false;
    if (names && (e.name === undefined || !names.has(e.name))) return false;
    if (subs && (e.subscriptionId === undefined || !subs.has(e.subscriptionId))) return false;
    if (filter.since !== undefined && e.time < filter.since) return false;
    if (filter.until !== undefined && e.time > filter.until) return false;
    if (needle === '') return true;
    for (const field of [e.name, e.eventId, e.message, e.uri, e.serverId, e.data, e.activity])
      if (field !== undefined && field.toLowerCase().includes(needle)) return true;
    return false;
  };
}
