// Deep links: every view has a URL fragment (#/servers/<id>/tools/<local name>, #/catalog?q=…, #/history/<callId>,
// #/events, …). Pure parsing and formatting; the store follows `hashchange`, so back/forward work.

/** A parsed location: the top-level view, its path segments (decoded) and query parameters. */
export interface Route {
  /** Top-level view id (first path segment), 'servers' when the fragment is empty. */
  view: string;
  /** Remaining path segments, percent-decoded. */
  segments: string[];
  /** Query parameters of the fragment. */
  query: Record<string, string>;
}

/** The view shown when the fragment is empty or unknown. */
export const DEFAULT_VIEW = 'servers';

const decode = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** Parses a location hash (`#/a/b?x=1`, `#a/b`, '' …) into a Route. Never throws. */
export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#/, '').replace(/^\/+/, '');
  const q = raw.indexOf('?');
  const path = q >= 0 ? raw.slice(0, q) : raw;
  const search = q >= 0 ? raw.slice(q + 1) : '';
  const parts = path
    .split('/')
    .filter((p) => p.length > 0)
    .map(decode);
  const query: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(search)) query[k] = v;
  return { view: parts[0] ?? DEFAULT_VIEW, segments: parts.slice(1), query };
}

/** Formats a Route as a location hash (`#/view/seg?x=1`); empty query values are left out. */
export function formatRoute(route: Route): string {
  const path = [route.view, ...route.segments].map((s) => encodeURIComponent(s)).join('/');
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(route.query)) if (v !== '') params.set(k, v);
  const search = params.toString();
  return `#/${path}${search ? `?${search}` : ''}`;
}

/** Whether two routes name the same location. */
export function sameRoute(a: Route, b: Route): boolean {
  return formatRoute(a) === formatRoute(b);
}

/** Builders for the routes other code links to. */
export const routes = {
  /** A top-level view with no further state. */
  view: (view: string): Route => ({ view, segments: [], query: {} }),
  /** The servers view, optionally one server, one of its tabs and an item in that tab (a tool's local name, a URI). */
  servers: (id?: string, tab?: string, item?: string): Route => ({
    view: 'servers',
    segments: [id, id ? tab : undefined, id && tab ? item : undefined].filter((s): s is string => s !== undefined),
    query: {},
  }),
  /** The catalog, optionally with a search text, an open tool and filters (server id, annotation hint). */
  catalog: (q?: string, tool?: string, filters: { server?: string | null; hint?: string | null } = {}): Route => ({
    view: 'catalog',
    segments: tool ? [tool] : [],
    query: {
      ...(q ? { q } : {}),
      ...(filters.server ? { server: filters.server } : {}),
      ...(filters.hint ? { hint: filters.hint } : {}),
    },
  }),
  /** The history, optionally one call. */
  history: (callId?: string): Route => ({ view: 'history', segments: callId ? [callId] : [], query: {} }),
};
