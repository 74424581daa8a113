// Hostile catalogs from the catalog fixture server, over real SDK stdio sessions.
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogHarness } from './harness.js';

const deny = { tools: { deny: ['catalog_control'] } };
let h: CatalogHarness;
afterEach(async () => {
  await h?.close();
});

describe('hostile catalogs', () => {
  it('rejects a listing that names a tool twice', async () => {
    h = new CatalogHarness();
    h.add('dupes', { env: { CATALOG_SCENARIO: 'duplicate' } });
    const report = await h.catalog.refresh('dupes');
    expect(report.servers[0]).toMatchObject({ id: 'dupes', ok: false, toolCount: 0 });
    expect(report.servers[0]!.error).toMatch(/names "dup" twice/);
    expect(h.catalog.groups()[0]!.stale?.reason).toMatch(/twice/);
  });

  it('rejects a cursor that repeats', async () => {
    h = new CatalogHarness();
    h.add('loop', { env: { CATALOG_SCENARIO: 'repeat-cursor' } });
    const report = await h.catalog.refresh('loop');
    expect(report.servers[0]!.ok).toBe(false);
    expect(report.servers[0]!.error).toMatch(/repeated a page cursor/);
  });

  it('rejects 3,000 tools over the 2,048 item budget, paginated or not', async () => {
    h = new CatalogHarness();
    h.add('many', { env: { CATALOG_TOOLS: '3000', CATALOG_PAGE_SIZE: '500' } });
    const report = await h.catalog.refresh('many');
    expect(report.servers[0]!.ok).toBe(false);
    expect(report.servers[0]!.error).toMatch(/more than 2048 tools/);
    expect(h.names('many')).toEqual([]);
  });

  it('an excluded tool cannot fail its server: budgets apply only to published tools', async () => {
    h = new CatalogHarness();
    h.add('over', { env: { CATALOG_SCENARIO: 'oversized' }, config: { tools: { deny: ['huge', 'catalog_control'] } } });
    const report = await h.catalog.refresh('over');
    expect(report.servers[0]).toMatchObject({ ok: true, toolCount: 0 });
  });

  it('one oversized schema rejects only that server, and its last good snapshot stays', async () => {
    h = new CatalogHarness();
    h.add('good', { env: { CATALOG_TOOLS: '3' }, config: deny });
    h.add('flaky', { env: { CATALOG_TOOLS: '3' }, config: deny });
    let report = await h.catalog.refresh();
    expect(report.servers.map((s) => s.ok)).toEqual([true, true]);
    const before = h.names('flaky');
    expect(before).toHaveLength(3);

    await h.control('flaky', { action: 'oversize', name: 'tool_0001' });
    report = await h.catalog.refresh();
    const flaky = report.servers.find((s) => s.id === 'flaky')!;
    expect(flaky.ok).toBe(false);
    expect(flaky.stale).toBe(true);
    expect(flaky.error).toMatch(/input schema of \d+ bytes/);
    expect(report.servers.find((s) => s.id === 'good')!.ok).toBe(true);
    expect(h.names('flaky')).toEqual(before);
    expect(h.catalog.groups().find((g) => g.serverId === 'flaky')!.stale).toBeDefined();
    expect(h.catalog.search({ query: '', serverIds: ['flaky'] }).tools.every((t) => t.stale)).toBe(true);
    expect(h.catalog.isDirty('flaky')).toBe(true); // retryable
    // Still callable from the last good snapshot.
    await expect(h.catalog.route('mcp__flaky__tool_0002')).resolves.toMatchObject({ originalName: 'tool_0002' });
  });

  it('hashes names that collide after normalization, within a server and across servers (server-id order)', async () => {
    h = new CatalogHarness();
    h.add('collide', { env: { CATALOG_SCENARIO: 'collide' }, config: deny });
    // "a-b" and "a_b" normalize to the same server segment.
    h.add('a_b', { env: { CATALOG_TOOLS: '2' }, config: deny });
    h.add('a-b', { env: { CATALOG_TOOLS: '2' }, config: deny });
    await h.catalog.refresh();
    const names = h.names('collide');
    const weather = names.filter((n) => n.startsWith('mcp__collide__get_weather'));
    expect(weather).toHaveLength(3);
    for (const n of weather) expect(n).toMatch(/_[0-9a-f]{8}$/);
    expect(names).toContain('mcp__collide__plain');
    for (const n of names) {
      expect(n.length).toBeLessThanOrEqual(64);
      expect(n).toMatch(/^[a-z0-9_]+$/);
    }
    // "a-b" sorts before "a_b": it keeps the plain names, "a_b" is suffixed.
    expect(h.names('a-b')).toEqual(['mcp__a_b__tool_0000', 'mcp__a_b__tool_0001']);
    expect(h.names('a_b').every((n) => /^mcp__a_b__tool_000\d_[0-9a-f]{8}$/.test(n))).toBe(true);
    // The route keeps the original name.
    const route = await h.catalog.route(weather[0]!);
    expect(['Get-Weather', 'get_weather', 'GET WEATHER']).toContain(route.originalName);
  });

  it('maps unicode and emoji names to stable ASCII local names', async () => {
    h = new CatalogHarness();
    h.add('uni', { env: { CATALOG_SCENARIO: 'unicode' }, config: deny });
    await h.catalog.refresh('uni');
    const names = h.names('uni');
    expect(names).toHaveLength(4);
    expect(names).toContain('mcp__uni__launch');
    expect(names).toContain('mcp__uni__cafe');
    // "日本語ツール" and "🎉" both normalize to "tool": both hashed.
    expect(names.filter((n) => /^mcp__uni__tool_[0-9a-f]{8}$/.test(n))).toHaveLength(2);
    const originals = h.catalog
      .search({ query: '', serverIds: ['uni'] })
      .tools.map((t) => t.originalName)
      .sort();
    expect(originals).toEqual(['café', '日本語ツール', '🎉', '🚀launch'].sort());
    expect(h.catalog.search({ query: 'cafe', serverIds: ['uni'] }).tools.map((t) => t.name)).toEqual(['mcp__uni__cafe']);
  });

  it('renders ANSI escapes and bidi overrides inert', async () => {
    h = new CatalogHarness();
    h.add('ansi', { env: { CATALOG_SCENARIO: 'ansi', CATALOG_INSTRUCTIONS: 'Use \u001b[31mme\u001b[0m \u202Ecarefully' }, config: deny });
    await h.catalog.refresh('ansi');
    const detail = h.catalog.tool('mcp__ansi__evil');
    const unsafe = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2066-\u2069]/;
    for (const text of [detail.description, detail.fullDescription, detail.title ?? '', detail.annotations.title ?? ''])
      expect(text).not.toMatch(unsafe);
    expect(detail.fullDescription).toBe('Safe text red then esrever and iso end');
    expect(detail.title).toBe('Red title');
    expect(h.catalog.groups()[0]!.instructions).toBe('Use me carefully');
  });

  it('marks app-only tools and spares them the budgets', async () => {
    h = new CatalogHarness();
    h.add('apps', { env: { CATALOG_SCENARIO: 'apps' }, config: deny });
    const report = await h.catalog.refresh('apps');
    expect(report.servers[0]!.ok).toBe(true);
    const widget = h.catalog.tool('mcp__apps__widget_only');
    expect(widget).toMatchObject({ appOnly: true, schemaOmitted: true });
    expect(h.catalog.tool('mcp__apps__both').appOnly).toBe(false);
    // Groups list what the model may call.
    expect(h.catalog.groups()[0]!.members).toEqual(['mcp__apps__both']);
  });

  it('adapts only missing/null properties and never dereferences a $ref', async () => {
    h = new CatalogHarness();
    h.add('adapt', { env: { CATALOG_SCENARIO: 'adapt' }, config: deny });
    await h.catalog.refresh('adapt');
    expect(h.catalog.tool('mcp__adapt__null_props').inputSchema).toEqual({ type: 'object', properties: {} });
    expect(h.catalog.tool('mcp__adapt__no_props').inputSchema).toEqual({
      type: 'object',
      properties: { nested: { type: 'object', properties: {} } },
    });
    expect(h.catalog.tool('mcp__adapt__remote_ref').inputSchema).toEqual({
      type: 'object',
      properties: { a: { $ref: 'https://example.invalid/schema.json' } },
    });
  });
});
