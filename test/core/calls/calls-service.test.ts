// The call service against a real SDK v2 fixture server over stdio.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnauthorizedError, type Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../electron/core/calls/history-store.js';
import { connectFixture, serverConfig, serviceFor, StaticCatalog, until, type Connected } from './helpers.js';

describe('tool calls over stdio (2026-07-28)', () => {
  let conn: Connected;
  let catalog: StaticCatalog;
  beforeAll(async () => {
    conn = await connectFixture('calls-stdio.ts', 'modern');
    catalog = await StaticCatalog.from('fx', conn.client);
  }, 30_000);
  afterAll(async () => conn?.close());

  function make(over: Parameters<typeof serverConfig>[1] = {}, historyFile?: string) {
    return serviceFor([serverConfig('fx', over)], { fx: conn.client }, catalog, historyFile);
  }

  it('reports progress and cancels a slow call; the server sees the cancellation', async () => {
    const { service, events } = make();
    const pending = service.call({ name: 'mcp__fx__slow', arguments: { ms: 5000, steps: 50 }, callId: 'slow-1' });
    await until(() => events.progress('slow-1').some((p) => p.progress !== undefined));
    const p = events.progress('slow-1').find((x) => x.progress !== undefined)!;
    expect(p.total).toBe(50);
    expect(p.message).toMatch(/^step \d+\/50$/);
    service.cancel('slow-1');
    const outcome = await pending;
    expect(outcome.status).toBe('cancelled');
    // The server saw the cancellation: the call did not run its 5 s.
    await until(() => conn.stderr().includes('cancelled slow'));
    expect(events.list.some((e) => e.event === 'call.finished')).toBe(true);
  });

  it('ends a call at the logical deadline', async () => {
    const { service } = make({ timeouts: { callSecs: 0.6 } });
    const cancels = (): number => conn.stderr().split('cancelled slow').length;
    const before = cancels();
    const outcome = await service.call({ name: 'mcp__fx__slow', arguments: { ms: 5000, steps: 5 } });
    expect(outcome.status).toBe('timeout');
    expect(outcome.error?.message).toMatch(/0.6 s deadline/);
    // The deadline ended the call on the server too, before its 5 s ran out.
    await until(() => cancels() > before);
  });

  it('the deadline covers queueing: a call stuck behind a serial call times out', async () => {
    const { service } = make({ timeouts: { callSecs: 0.8 } });
    const first = service.call({ name: 'mcp__fx__write', arguments: { ms: 600, label: 'a' } });
    const second = service.call({ name: 'mcp__fx__write', arguments: { ms: 600, label: 'b' } });
    expect((await first).status).toBe('ok');
    const b = await second;
    expect(b.status).toBe('timeout');
  });

  it('echoes two requestState-only MRTR rounds and succeeds', async () => {
    const { service } = make();
    const outcome = await service.call({ name: 'mcp__fx__mrtr_state', arguments: { rounds: 2 } });
    expect(outcome.status).toBe('ok');
    expect(outcome.presentation.text).toBe('done after 2 rounds');
  });

  it('a tool that needs sampling ends with a clear tool-level error naming the setting', async () => {
    const { service } = make();
    const outcome = await service.call({ name: 'mcp__fx__mrtr_sampling', arguments: {} });
    expect(outcome.status).toBe('error');
    expect(outcome.error?.code).toBe('sampling_not_enabled');
    expect(outcome.presentation.isError).toBe(true);
    expect(outcome.presentation.text).toMatch(/Turn on 'Answer sampling requests'/);
  });

  it('an elicitation round is a tool-level error unless the server opted in and a handler exists', async () => {
    const off = make();
    const a = await off.service.call({ name: 'mcp__fx__mrtr_elicit', arguments: {} });
    expect(a.error?.code).toBe('elicitation_not_enabled');
    const withCap = await connectFixture('calls-stdio.ts', 'modern', {}, { elicitation: { form: {} } });
    const on = serviceFor([serverConfig('fx', { elicitation: true })], { fx: withCap.client }, catalog);
    const b = await on.service.call({ name: 'mcp__fx__mrtr_elicit', arguments: {} });
    expect(b.error?.code).toBe('elicitation_unavailable');
    let asked = '';
    const answering = serviceFor([serverConfig('fx', { elicitation: true })], { fx: withCap.client }, catalog, undefined, {
      elicit: async (serverId, params) => {
        asked = `${serverId}:${String(params.message)}`;
        return { action: 'accept', content: { name: 'Ada' } };
      },
    });
    const c = await answering.service.call({ name: 'mcp__fx__mrtr_elicit', arguments: {} });
    expect(asked).toBe('fx:Your name?');
    expect(c.status).toBe('ok');
    expect(c.presentation.text).toBe('hello Ada');
    await withCap.close();
  }, 30_000);

  it('serial: overlapping calls do not overlap at the server', async () => {
    const { service } = make({ concurrency: 'serial' });
    const outs = await Promise.all([
      service.call({ name: 'mcp__fx__read', arguments: { ms: 300, label: 'a' } }),
      service.call({ name: 'mcp__fx__read', arguments: { ms: 300, label: 'b' } }),
      service.call({ name: 'mcp__fx__write', arguments: { ms: 300, label: 'c' } }),
    ]);
    const spans = outs
      .map((o) => JSON.parse(o.presentation.structured!) as { start: number; end: number })
      .sort((x, y) => x.start - y.start);
    for (let i = 1; i < spans.length; i++) expect(spans[i]!.start).toBeGreaterThanOrEqual(spans[i - 1]!.end);
  });

  it('readOnlyParallel: two read-only calls overlap and a write waits for them', async () => {
    const { service } = make({ concurrency: 'readOnlyParallel' });
    const [r1, r2, w] = await Promise.all([
      service.call({ name: 'mcp__fx__read', arguments: { ms: 400, label: 'r1' } }),
      service.call({ name: 'mcp__fx__read', arguments: { ms: 400, label: 'r2' } }),
      service.call({ name: 'mcp__fx__write', arguments: { ms: 100, label: 'w' } }),
    ]);
    const s = (o: typeof r1) => JSON.parse(o.presentation.structured!) as { start: number; end: number };
    expect(s(r2).start).toBeLessThan(s(r1).end);
    expect(s(w).start).toBeGreaterThanOrEqual(Math.max(s(r1).end, s(r2).end));
  });

  it('presents text, image, audio, structured content and links; the JSON copy of structuredContent is shown once', async () => {
    const { service } = make();
    const o = await service.call({ name: 'mcp__fx__rich', arguments: {} });
    expect(o.status).toBe('ok');
    const p = o.presentation;
    expect(p.text).toBe('Weather report');
    expect(JSON.parse(p.structured!)).toEqual({ temperature: 21.5, unit: 'C' });
    expect(p.media.map((m) => `${m.kind}:${m.mimeType}`)).toEqual(['image:image/png', 'audio:audio/wav']);
    expect(p.media[0]).toMatchObject({ width: 1, height: 1 });
    expect(p.links).toEqual([{ uri: 'file:///tmp/report.csv', name: 'report.csv', mimeType: 'text/csv' }]);
    expect(p.resources).toEqual([{ uri: 'fixture://note', mimeType: 'text/plain', text: 'An embedded note' }]);
    expect(p.notices).toEqual([]);
    const env = service.result(o.callId);
    expect(env).toMatchObject({ serverId: 'fx', originalName: 'rich', callId: o.callId });
    expect((env.result as { content: unknown[] }).content).toHaveLength(6);
  });

  it('refuses an SVG labelled PNG', async () => {
    const { service } = make();
    const o = await service.call({ name: 'mcp__fx__svg_png', arguments: {} });
    expect(o.presentation.media).toEqual([]);
    expect(o.presentation.notices.join(' ')).toMatch(/labelled image\/png but the bytes are SVG/);
  });

  it('an 8 MiB text result: bounded presentation, small bridge payload, full envelope retrievable', async () => {
    const { service } = make();
    const size = 8 * 1024 * 1024;
    const o = await service.call({ name: 'mcp__fx__big', arguments: { bytes: size } });
    expect(o.status).toBe('ok');
    expect(o.presentation.truncated).toBe(true);
    expect(o.presentation.text).toMatch(/\[truncated: showing 32768 of 8388608 bytes/);
    expect(Buffer.byteLength(JSON.stringify(o))).toBeLessThanOrEqual(64 * 1024);
    const env = service.result(o.callId);
    const text = (env.result as { content: { text: string }[] }).content[0]!.text;
    expect(text.length).toBe(size);
  }, 30_000);

  it('refuses a stale route with a clear message', async () => {
    const { service } = make();
    const route = await catalog.route('mcp__fx__echo_missing').catch(() => undefined);
    expect(route).toBeUndefined();
    const fresh = await catalog.route('mcp__fx__read');
    const stale = { ...fresh, revision: fresh.revision - 1 };
    const o = await service.callRoute(stale, { ms: 1, label: 'x' });
    expect(o.status).toBe('error');
    expect(o.error?.message).toMatch(/changed since it was shown/);
  });

  it('records every call; history is searchable, saved, exported, cleared and persisted', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'calls-history-')), 'call-history.json');
    const { service } = make({}, file);
    const a = await service.call({ name: 'mcp__fx__mrtr_state', arguments: { rounds: 0 } });
    await service.call({ name: 'mcp__fx__read', arguments: { ms: 1, label: 'needle' } });
    expect(service.history.search({}).total).toBe(2);
    expect(service.history.search({ query: 'needle' }).entries.map((e) => e.tool)).toEqual(['mcp__fx__read']);
    service.history.save(a.callId, 'My call');
    expect(service.history.search({ savedOnly: true }).entries[0]).toMatchObject({
      savedAs: 'My call',
      arguments: { rounds: 0 },
      status: 'ok',
    });
    await service.history.flush();
    const reopened = new HistoryStore(file);
    expect(reopened.search({}).total).toBe(2);
    expect(JSON.parse(service.history.export().text).entries).toHaveLength(2);
    service.history.clear(false);
    expect(service.history.search({}).entries.map((e) => e.savedAs)).toEqual(['My call']);
    await service.history.flush();
    expect(JSON.parse(readFileSync(file, 'utf8')).entries).toHaveLength(1);
  });
});

describe('failures', () => {
  it('an authorization failure during a call is a tool-level authorization_required error', async () => {
    const fake = { request: () => Promise.reject(new UnauthorizedError('401')) } as unknown as Client;
    const catalog = new StaticCatalog();
    catalog.add('web', { name: 't', inputSchema: { type: 'object' } });
    const { service } = serviceFor([serverConfig('web')], { web: fake }, catalog);
    const o = await service.call({ name: 'mcp__web__t', arguments: {} });
    expect(o.status).toBe('error');
    expect(o.error?.code).toBe('authorization_required');
    expect(JSON.parse(o.presentation.text)).toEqual({ error: { code: 'authorization_required', server_id: 'web' } });
    expect(JSON.parse((service.result(o.callId).result as { content: { text: string }[] }).content[0]!.text)).toEqual({
      error: { code: 'authorization_required', server_id: 'web' },
    });
  });

  it('a transport failure is an error and is not retried', async () => {
    const conn = await connectFixture('crash-after.ts', 'legacy');
    try {
      const catalog = await StaticCatalog.from('cr', conn.client);
      const { service } = serviceFor([serverConfig('cr')], { cr: conn.client }, catalog);
      const name = [...catalog.routes.keys()].find((n) => n.endsWith('crash'))!;
      const o = await service.call({ name, arguments: {} });
      expect(o.status).toBe('error');
      expect(o.error?.code).toBe('connection_closed');
    } finally {
      await conn.close();
    }
  });
});
