import { describe, expect, it } from 'vitest';
import {
  ANN_READ_ONLY,
  prefixWithinOneEdit,
  prepareQuery,
  searchIndexes,
  ServerIndex,
  type IndexInput,
} from '../../../electron/core/catalog/search-index.js';

const WORDS = ['weather', 'forecast', 'search', 'files', 'github', 'issues', 'calendar', 'email', 'database', 'query', 'deploy', 'metrics'];

function tools(server: string, n: number): IndexInput[] {
  return Array.from({ length: n }, (_, i) => ({
    localName: `mcp__${server}__tool_${i}`,
    originalName: `tool_${i}_${WORDS[i % WORDS.length]}`,
    title: `Tool ${i} ${WORDS[(i * 7) % WORDS.length]}`,
    description: `Does ${WORDS[(i * 3) % WORDS.length]} things with ${WORDS[(i * 5 + 1) % WORDS.length]} for number ${i}.`,
    flags: i % 2 === 0 ? ANN_READ_ONLY : 0,
  }));
}

describe('search index', () => {
  const small = new ServerIndex('a', [
    {
      localName: 'mcp__a__get_weather',
      originalName: 'get_weather',
      title: 'Current weather',
      description: 'Weather for a city',
      flags: ANN_READ_ONLY,
    },
    {
      localName: 'mcp__a__search_files',
      originalName: 'search_files',
      title: 'Search files',
      description: 'Find files mentioning the weather',
      flags: 0,
    },
    { localName: 'mcp__a__send_email', originalName: 'sendEmail', description: 'Send an email', flags: 0 },
  ]);

  it('ranks name matches above description matches', () => {
    const hits = searchIndexes([small], 'weather', 0);
    expect(hits.map((h) => h.index.names[h.id])).toEqual(['mcp__a__get_weather', 'mcp__a__search_files']);
  });

  it('matches prefixes, camelCase parts and one typo', () => {
    expect(searchIndexes([small], 'wea', 0)).toHaveLength(2);
    expect(searchIndexes([small], 'email', 0).map((h) => h.index.names[h.id])).toEqual(['mcp__a__send_email']);
    expect(searchIndexes([small], 'waether', 0).map((h) => h.index.names[h.id])[0]).toBe('mcp__a__get_weather');
    expect(searchIndexes([small], 'serch fil', 0).map((h) => h.index.names[h.id])).toEqual(['mcp__a__search_files']);
    expect(prefixWithinOneEdit(prepareQuery('wether')[0]!, 'weather')).toBe(true);
    expect(prefixWithinOneEdit(prepareQuery('xyzzy')[0]!, 'weather')).toBe(false);
  });

  it('matches inside words ("zone" finds "timezone"), below prefix matches', () => {
    const ix = new ServerIndex('t', [
      { localName: 'mcp__t__convert_time', originalName: 'convert_time', description: 'Converts a time between timezones', flags: 0 },
      { localName: 'mcp__t__get_current_time', originalName: 'get_current_time', description: 'The time in a timezone', flags: 0 },
      { localName: 'mcp__t__zone_info', originalName: 'zone_info', description: 'Details of a zone', flags: 0 },
      { localName: 'mcp__t__ozone', originalName: 'ozone_level', description: 'Air quality', flags: 0 },
    ]);
    const names = (q: string) => searchIndexes([ix], q, 0).map((h) => h.index.names[h.id]);
    expect(names('zone')[0]).toBe('mcp__t__zone_info');
    expect(names('zone').sort()).toEqual(['mcp__t__convert_time', 'mcp__t__get_current_time', 'mcp__t__ozone', 'mcp__t__zone_info']);
    expect(names('timezone')).toEqual(expect.arrayContaining(['mcp__t__convert_time', 'mcp__t__get_current_time']));
    // Two-character terms stay prefix-only (inside words they would match nearly everything).
    expect(names('on')).toEqual([]);
  });

  it('filters by annotation', () => {
    expect(searchIndexes([small], 'weather', ANN_READ_ONLY).map((h) => h.index.names[h.id])).toEqual(['mcp__a__get_weather']);
  });

  it('finds the right tools across 20,000 tools in ten servers (latency is measured in bench/catalog.ts)', () => {
    const indexes = Array.from({ length: 10 }, (_, s) => new ServerIndex(`s${s}`, tools(`s${s}`, 2000)));
    const names = (q: string) => searchIndexes(indexes, q, 0).map((h) => h.index.names[h.id]);
    expect(names('zzz')).toEqual([]);
    expect(names('number 1999').slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, s) => `mcp__s${s}__tool_1999`));
    expect(names('forcast').length).toBeGreaterThan(0); // one typo still matches
  });
});
