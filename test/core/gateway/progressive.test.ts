// Progressive exposure with 20,000 upstream tools: the client starts with the three discovery tools, surveys the
// groups, selects a group (schemas within the 256 KiB / 128-definition output budget, the rest named in
// `omitted`), gets tools/list_changed and sees the selected tools, calls one; the session's accumulated budget
// (128 definitions / 256 KiB) holds; omitted tools can be selected by exact name; search stays within budget.
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayWorld, textOf, until } from './harness.js';

const BUDGET = 256 * 1024;
const TOOLS = 20_000;
// The fixture's generated tools plus its catalog_control tool.
const MEMBERS = TOOLS + 1;
let w: GatewayWorld;
let token = '';
let narrow = '';

beforeAll(async () => {
  w = new GatewayWorld();
  await w.addServer(
    'big',
    'catalog-hostile.ts',
    { limits: { catalogItems: 25_000, catalogPages: 100 } as never, timeouts: { listSecs: 300 } as never },
    { CATALOG_TOOLS: String(TOOLS), CATALOG_SCHEMA_BYTES: '1500', CATALOG_PAGE_SIZE: '2000', CATALOG_TITLE: 'Big toolbox' },
  );
  await w.addServer('fx', 'calls-stdio.ts');
  await w.enable();
  ({ token } = await w.client('explorer', { mode: 'progressive', writes: 'allow' }));
  ({ token: narrow } = await w.client('narrow', { mode: 'progressive', servers: ['fx'], writes: 'allow' }));
}, 600_000);
afterAll(async () => w?.close());

const json = (result: unknown): Record<string, unknown> => JSON.parse(textOf(result)) as Record<string, unknown>;
const size = (result: unknown): number => Buffer.byteLength(textOf(result), 'utf8');

describe.each(['legacy', 'modern'] as const)('progressive, %s', (era) => {
  let c: Client;
  let changed = 0;

  it('starts with the discovery tools only, and the groups directory fits the budget', async () => {
    c = await w.http(token, era, {}, undefined, () => {
      changed++;
    });
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name)).toEqual(['tools_groups', 'tools_select', 'tools_search']);
    const groups = await c.callTool({ name: 'tools_groups', arguments: {} });
    expect(size(groups)).toBeLessThanOrEqual(BUDGET);
    const dir = json(groups) as { groups: { id: string; member_count: number; members?: unknown }[] };
    expect(dir.groups.map((g) => g.id)).toEqual(['mcp:big', 'mcp:fx']);
    expect(dir.groups[0]!.member_count).toBe(MEMBERS);
    expect(dir.groups[0]!.members).toBeUndefined();
  });

  it('selects a group within the output budget, announces list_changed and lists the selection', async () => {
    const selected = await c.callTool({ name: 'tools_select', arguments: { group: 'mcp:big' } });
    expect(size(selected)).toBeLessThanOrEqual(BUDGET);
    const out = json(selected) as {
      tools: { name: string; inputSchema: unknown }[];
      omitted: string[];
      omitted_count?: number;
      groups: { id: string; members?: string[]; member_count: number }[];
      session: { added: number; definitions: number; bytes: number };
    };
    expect(out.tools.length).toBeGreaterThan(10);
    expect(out.tools.length).toBeLessThanOrEqual(128);
    expect(out.tools.length + (out.omitted_count ?? out.omitted.length)).toBe(MEMBERS);
    expect(out.omitted.length).toBeGreaterThan(100);
    expect(out.groups[0]).toMatchObject({ id: 'mcp:big', member_count: MEMBERS });
    expect(out.session.added).toBe(out.tools.length);
    expect(out.session.bytes).toBeLessThanOrEqual(BUDGET);
    if (era === 'legacy') await until(() => changed > 0, 20_000, 'tools/list_changed');
    else await until(() => changed > 0, 20_000, 'tools/list_changed on the listen stream');
    const { tools } = await c.listTools();
    expect(tools.length).toBe(3 + out.tools.length);
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(out.tools.map((t) => t.name)));
    const bytes = tools.slice(3).reduce((n, t) => n + Buffer.byteLength(JSON.stringify(t), 'utf8'), 0);
    expect(bytes).toBeLessThanOrEqual(BUDGET);
    const pick = out.tools.find((t) => t.name.startsWith('mcp__big__tool_'))!.name;
    const called = await c.callTool({ name: pick, arguments: { text: 'x' } });
    expect(textOf(called)).toBe(`called ${pick.replace('mcp__big__', '')}`);

    // Omitted tools can be selected by exact name, until the session's accumulated budget is reached.
    const pool = out.omitted.slice();
    const name = pool.at(-1)!;
    let full = false;
    for (let i = 0; i < 10 && !full; i++) {
      const more = await c.callTool({ name: 'tools_select', arguments: { tools: pool.splice(0, 64) } });
      expect(size(more)).toBeLessThanOrEqual(BUDGET);
      const session = (json(more) as { session: { not_added?: string[]; definitions: number; bytes: number } }).session;
      expect(session.definitions).toBeLessThanOrEqual(128);
      expect(session.bytes).toBeLessThanOrEqual(BUDGET);
      full = (session.not_added?.length ?? 0) > 0;
    }
    expect(full).toBe(true);
    const listed = await c.listTools();
    expect(listed.tools.length).toBeLessThanOrEqual(3 + 128);
    const fresh = json(await c.callTool({ name: 'tools_select', arguments: { tools: [name], clear: true } })) as {
      tools: { name: string }[];
      session: { definitions: number; cleared?: boolean };
    };
    expect(fresh.tools.map((t) => t.name)).toEqual([name]);
    expect(fresh.session).toMatchObject({ definitions: 1, cleared: true });
    const after = await c.listTools();
    expect(after.tools.map((t) => t.name)).toEqual(['tools_groups', 'tools_select', 'tools_search', name]);
  });

  it('searches within the budget', async () => {
    const found = await c.callTool({ name: 'tools_search', arguments: { query: 'tool 42', limit: 50 } });
    expect(size(found)).toBeLessThanOrEqual(BUDGET);
    const out = json(found) as { tools: { name: string; server: string }[]; total: number };
    expect(out.tools.length).toBeGreaterThan(0);
    expect(out.tools.every((t) => t.name.startsWith('mcp__big__') || t.name.startsWith('mcp__fx__'))).toBe(true);
  });
});

describe('a progressive profile sees only its servers', () => {
  it('in groups, selection, search and calls', async () => {
    const c = await w.http(narrow, 'modern');
    const groups = json(await c.callTool({ name: 'tools_groups', arguments: {} })) as { groups: { id: string }[] };
    expect(groups.groups.map((g) => g.id)).toEqual(['mcp:fx']);
    const select = await c.callTool({ name: 'tools_select', arguments: { group: 'mcp:big' } });
    expect(select.isError).toBe(true);
    expect(textOf(select)).toContain('No group');
    const byName = json(await c.callTool({ name: 'tools_select', arguments: { tools: ['mcp__big__tool_0001', 'mcp__fx__read'] } })) as {
      tools: { name: string }[];
      unknown: string[];
    };
    expect(byName.tools.map((t) => t.name)).toEqual(['mcp__fx__read']);
    expect(byName.unknown).toEqual(['mcp__big__tool_0001']);
    const search = json(await c.callTool({ name: 'tools_search', arguments: { query: 'tool', limit: 50 } })) as {
      tools: { server: string }[];
    };
    expect(search.tools.every((t) => t.server === 'fx')).toBe(true);
    const call = await c.callTool({ name: 'mcp__big__tool_0001', arguments: {} });
    expect(call.isError).toBe(true);
    expect(textOf(call)).toMatch(/Unknown tool/);
  });
});
