// Deep-link parsing and formatting.
import { describe, expect, it } from 'vitest';
import { formatRoute, parseHash, routes, sameRoute } from '../../renderer/src/router/route';

describe('routes', () => {
  it('parses every documented fragment', () => {
    expect(parseHash('')).toEqual({ view: 'servers', segments: [], query: {} });
    expect(parseHash('#/servers/demo/tools/mcp__demo__add')).toEqual({
      view: 'servers',
      segments: ['demo', 'tools', 'mcp__demo__add'],
      query: {},
    });
    expect(parseHash('#/catalog?q=add%20numbers&server=demo')).toEqual({
      view: 'catalog',
      segments: [],
      query: { q: 'add numbers', server: 'demo' },
    });
    expect(parseHash('#/history/abc-123')).toEqual({ view: 'history', segments: ['abc-123'], query: {} });
    expect(parseHash('#events')).toEqual({ view: 'events', segments: [], query: {} });
  });

  it('round-trips segments that need encoding (resource URIs, slashes, spaces)', () => {
    const route = routes.servers('demo', 'resources', 'file:///tmp/a b/c?d=1#e');
    const hash = formatRoute(route);
    expect(hash).toBe('#/servers/demo/resources/file%3A%2F%2F%2Ftmp%2Fa%20b%2Fc%3Fd%3D1%23e');
    expect(parseHash(hash)).toEqual(route);
    expect(formatRoute(routes.catalog('x y', 'mcp__a__b'))).toBe('#/catalog/mcp__a__b?q=x+y');
    expect(sameRoute(parseHash(formatRoute(routes.catalog('x y'))), routes.catalog('x y'))).toBe(true);
  });

  it('never throws on malformed input', () => {
    expect(parseHash('#/servers/%E0%A4%A').segments).toEqual(['%E0%A4%A']);
    expect(parseHash('#///?&&=').view).toBe('servers');
    expect(routes.servers(undefined, 'tools').segments).toEqual([]);
  });
});
