// The feed's filter as the URL carries it (#/events?server=a,b&type=x&sub=id&kind=event,gap&time=1h&q=text), so a
// filtered feed is a deep link; and the same filter as the core wants it.
import type { FeedEntryKind, FeedFilter } from '../../../../shared/domains/events';
import { sinceOf, TIME_PRESETS, type TimePreset } from './feed-logic';

/** The filter controls' state. */
export interface FeedQuery {
  /** Servers (none: all). */
  servers: string[];
  /** One event type name, or all. */
  type: string | null;
  /** One subscription, or all. */
  sub: string | null;
  /** Kinds shown. */
  kinds: FeedEntryKind[];
  /** Time window. */
  time: TimePreset;
  /** Text search. */
  q: string;
}

/** Every kind, in display order. */
export const ALL_KINDS: FeedEntryKind[] = ['event', 'gap', 'error', 'activity'];

/** The default: everything. */
export const EMPTY_QUERY: FeedQuery = { servers: [], type: null, sub: null, kinds: ALL_KINDS, time: 'all', q: '' };

const isKind = (k: string): k is FeedEntryKind => (ALL_KINDS as string[]).includes(k);
const isPreset = (t: string): t is TimePreset => TIME_PRESETS.some((p) => p.value === t);

/** Reads the filter from a location's query parameters (unknown values ignored). */
export function queryFromParams(params: Record<string, string>): FeedQuery {
  const servers = (params['server'] ?? '').split(',').filter((s) => s.length > 0);
  const kinds = (params['kind'] ?? '').split(',').filter(isKind);
  const time = params['time'] ?? 'all';
  return {
    servers,
    type: params['type'] || null,
    sub: params['sub'] || null,
    kinds: kinds.length > 0 ? kinds : ALL_KINDS,
    time: isPreset(time) ? time : 'all',
    q: params['q'] ?? '',
  };
}

/** The query parameters of a filter (defaults left out). */
export function paramsFromQuery(q: FeedQuery): Record<string, string> {
  const out: Record<string, string> = {};
  if (q.servers.length > 0) out['server'] = q.servers.join(',');
  if (q.type) out['type'] = q.type;
  if (q.sub) out['sub'] = q.sub;
  if (q.kinds.length > 0 && q.kinds.length < ALL_KINDS.length) out['kind'] = q.kinds.join(',');
  if (q.time !== 'all') out['time'] = q.time;
  if (q.q.trim() !== '') out['q'] = q.q;
  return out;
}

/** The filter the core pages with (`{}` is everything). */
export function feedFilterOf(q: FeedQuery, now: number): FeedFilter {
  const since = sinceOf(q.time, now);
  return {
    ...(q.servers.length > 0 ? { serverIds: q.servers } : {}),
    ...(q.type ? { names: [q.type] } : {}),
    ...(q.sub ? { subscriptionIds: [q.sub] } : {}),
    ...(q.kinds.length < ALL_KINDS.length ? { kinds: q.kinds.length > 0 ? q.kinds : ['event'] } : {}),
    ...(since !== undefined ? { since } : {}),
    ...(q.q.trim() !== '' ? { text: q.q.trim() } : {}),
  };
}
