// Real MCP clients against the gateway over loopback HTTP: the SDK v2 client on 2026-07-28 (stateless) and on a
// 2025-11-25 session, and the v1 SDK client. List, call, progress, cancel, prompts, resources, completion, and the
// call recorded in Switchboard's history under the client's name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayWorld, textOf, until } from './harness.js';

let w: GatewayWorld;
let token = '';

beforeAll(async () => {
  w = new GatewayWorld();
  await w.addServer('fx', 'calls-stdio.ts');
  await w.addServer('res', 'res-server.ts');
  await w.enable();
  ({ token } = await w.client('tester', { mode: 'all', writes: 'allow' }));
}, 120_000);
afterAll(async () => w?.close());

describe.each(['modern', 'legacy'] as const)('SDK v2 client, %s', (era) => {
  it('lists every tool under its local name and calls one with structured content', async () => {
    const c = await w.http(token, era);
    expect(c.getProtocolEra()).toBe(era);
    const { tools } = await c.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['mcp__fx__read', 'mcp__fx__write', 'mcp__res__bump']));
    expect(names.every((n) => n.startsWith('mcp__'))).toBe(true);
    const read = tools.find((t) => t.name === 'mcp__fx__read')!;
    expect(read.annotations?.readOnlyHint).toBe(true);
    expect(read.inputSchema).toMatchObject({ type: 'object', properties: { ms: expect.anything(), label: expect.anything() } });
    const result = await c.callTool({ name: 'mcp__fx__read', arguments: { ms: 1, label: `hi-${era}` } });
    expect(result.isError).not.toBe(true);
    expect(result.structuredContent).toMatchObject({ label: `hi-${era}` });
    const entry = w.host.calls.history.search({ query: `hi-${era}` }).entries[0];
    expect(entry?.origin).toEqual({ kind: 'gateway', clientId: expect.any(String), clientName: 'tester' });
    expect(w.host.gateway.activity().some((a) => a.kind === 'call' && a.tool === 'mcp__fx__read' && a.clientName === 'tester')).toBe(true);
  });

  it('passes progress through and cancels: the server sees the cancellation', async () => {
    const c = await w.http(token, era);
    const seen: number[] = [];
    const controller = new AbortController();
    const call = c.callTool(
      { name: 'mcp__fx__slow', arguments: { ms: 20_000, steps: 200 } },
      {
        signal: controller.signal,
        onprogress: (p) => seen.push(p.progress),
      },
    );
    await until(() => seen.length >= 2, 20_000, 'progress');
    expect(seen[1]!).toBeGreaterThan(seen[0]!);
    const before = w.h.sessions.logs('fx').filter((l) => l.text.includes('cancelled slow')).length;
    controller.abort();
    await expect(call).rejects.toThrow();
    await until(
      () => w.h.sessions.logs('fx').filter((l) => l.text.includes('cancelled slow')).length > before,
      20_000,
      'server-side cancel',
    );
    await until(() => w.host.calls.history.search({}).entries.some((e) => e.tool === 'mcp__fx__slow' && e.status === 'cancelled'));
  });

  it('serves prompts under prefixed names and resources under wrapped URIs, with completion', async () => {
    const c = await w.http(token, era);
    const { prompts } = await c.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(expect.arrayContaining(['mcp__res__plain', 'mcp__res__review']));
    const review = await c.getPrompt({ name: 'mcp__res__review', arguments: { language: 'rust', code: 'fn main() {}' } });
    expect(JSON.stringify(review.messages)).toContain('Please review this rust');
    const { resources } = await c.listResources();
    expect(resources.map((r) => r.uri)).toContain('switchboard://res/res://plain');
    const read = await c.readResource({ uri: 'switchboard://res/res://plain' });
    const first = read.contents[0] as { uri: string; text?: string };
    expect(first.uri).toBe('switchboard://res/res://plain');
    // Control and bidi characters of server text are stripped on the way through.
    expect(first.text).toBe('Hello from a plain resource.evil');
    const { resourceTemplates } = await c.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain('switchboard://res/item://{category}/{id}');
    const item = await c.readResource({ uri: 'switchboard://res/item://fruit/7' });
    expect((item.contents[0] as { text?: string }).text).toBe('Item 7 in fruit');
    const done = await c.complete({ ref: { type: 'ref/prompt', name: 'mcp__res__review' }, argument: { name: 'language', value: 'ty' } });
    expect(done.completion.values).toEqual(['typescript']);
    await expect(c.readResource({ uri: 'res://plain' })).rejects.toThrow(/Unknown resource/);
    await expect(c.getPrompt({ name: 'plain' })).rejects.toThrow(/Unknown prompt/);
  });
});

describe('v1 SDK client (2025-11-25 session)', () => {
  it('lists, calls with progress, reads prompts and resources', async () => {
    const c = await w.v1Http(token);
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name)).toContain('mcp__fx__slow');
    const progress: number[] = [];
    const result = await c.callTool({ name: 'mcp__fx__slow', arguments: { ms: 400, steps: 4 } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    expect(textOf(result)).toMatch(/done after 400ms/);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    const prompt = await c.getPrompt({ name: 'mcp__res__plain' });
    expect(JSON.stringify(prompt.messages)).toContain('Say hello.');
    const res = await c.readResource({ uri: 'switchboard://res/res://data.json' });
    expect((res.contents[0] as { text?: string }).text).toBe('{"a":1,"b":[true,null]}');
  });

  it('cancels a call: the server sees the cancellation', async () => {
    const c = await w.v1Http(token);
    const controller = new AbortController();
    const seen: number[] = [];
    const call = c.callTool({ name: 'mcp__fx__slow', arguments: { ms: 20_000, steps: 200 } }, undefined, {
      signal: controller.signal,
      onprogress: (p) => seen.push(p.progress),
    });
    await until(() => seen.length >= 1, 20_000, 'progress');
    const before = w.h.sessions.logs('fx').filter((l) => l.text.includes('cancelled slow')).length;
    controller.abort();
    await expect(call).rejects.toThrow();
    await until(
      () => w.h.sessions.logs('fx').filter((l) => l.text.includes('cancelled slow')).length > before,
      20_000,
      'server-side cancel',
    );
  });
});
