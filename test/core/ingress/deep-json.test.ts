// Deep JSON from a hostile server (issue 17 item 1): data nested thousands of levels deep in a result, its
// `_meta`, an unknown content-block field, an elicitation's passthrough field or a tool schema must neither
// kill the host nor break a later bridge answer. Driven through the real headless bridge over a WebSocket.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { ElicitationRequestView } from '../../../shared/domains/resources.js';
import type { AuditedEnvelope, CallOutcome } from '../../../shared/domains/calls.js';
import type { RefreshReport } from '../../../shared/domains/catalog.js';
import { createDispatcher } from '../../../electron/core/dispatcher.js';
import { createHandlers } from '../../../electron/core/handlers.js';
import { jsonDepth } from '../../../electron/core/ingress/depth.js';
import { VIEW_MAX_DEPTH } from '../../../electron/core/ingress/limits.js';
import { startBridgeServer, type BridgeServer } from '../../../electron/headless/bridge-server.js';
import { cleanup, tempDir } from '../../shared/support/harness.js';
import { addApproved, fixture, makeSessionHost, stdioServer, type SessionHarness } from '../sessions/helpers.js';

let dir: string;
let h: SessionHarness;
let bridge: BridgeServer;
let ws: WebSocket;
let nextId = 1;
const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
const notifications: { method: string; params: unknown }[] = [];

function rpc<T>(method: string, params: unknown = {}): Promise<T> {
  const id = nextId++;
  return new Promise<T>((resolve, reject) => {
    pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
    ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
  });
}

async function waitFor(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeEach(async () => {
  dir = tempDir('sb-deep-');
  const staticDir = join(dir, 'renderer');
  mkdirSync(staticDir, { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  h = makeSessionHost(join(dir, 'data'));
  const token = randomBytes(16).toString('base64url');
  bridge = await startBridgeServer({
    dispatch: createDispatcher(createHandlers(h.host)),
    events: h.host.events,
    staticDir,
    token,
    port: 0,
  });
  ws = new WebSocket(`ws://127.0.0.1:${bridge.port}/bridge?token=${token}`, { headers: { Origin: bridge.origin } });
  ws.on('message', (data) => {
    const msg = JSON.parse(String(data)) as {
      id?: number;
      result?: unknown;
      error?: { message: string };
      method?: string;
      params?: unknown;
    };
    if (msg.method !== undefined) notifications.push({ method: msg.method, params: msg.params });
    else if (typeof msg.id === 'number') {
      const p = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) p?.reject(Object.assign(new Error(msg.error.message), { data: msg.error }));
      else p?.resolve(msg.result);
    }
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
});

afterEach(async () => {
  ws.terminate();
  await bridge.close();
  await h.host.shutdown();
  cleanup(dir);
  notifications.length = 0;
});

describe('deep JSON from a server', () => {
  it('a result nested 10,000 levels deep (structuredContent, _meta, unknown block field) still answers calls.result, bounded', async () => {
    await addApproved(h.host, stdioServer('deep', fixture('hostile-deep.ts')));
    const outcome = await rpc<CallOutcome>('tools.call', { name: 'mcp__deep__deep', arguments: {} });
    expect(outcome.status).toBe('ok');
    expect(outcome.presentation.notices.join(' ')).toMatch(/nested deeper than/);

    const envelope = await rpc<AuditedEnvelope>('calls.result', { callId: outcome.callId });
    expect(jsonDepth(envelope.result, 10_000)).toBeLessThanOrEqual(VIEW_MAX_DEPTH + 1);
    expect(envelope.notice).toMatch(/nested deeper than 64 levels/);
    // The bridge is still serving, and the server's log says what happened.
    const logs = await rpc<{ text: string }[]>('servers.logs', { id: 'deep' });
    expect(logs.map((l) => l.text).join('\n')).toMatch(/nested deeper than \d+ levels/);
  });

  it('an elicitation with a deep passthrough field is shown bounded, and elicitation.pending still answers', async () => {
    await addApproved(h.host, stdioServer('deep', fixture('hostile-deep.ts'), { elicitation: true }));
    const call = rpc<CallOutcome>('tools.call', { name: 'mcp__deep__ask', arguments: {} });
    await waitFor(() => notifications.some((n) => n.method === 'elicitation.requested'), 'elicitation.requested');
    const pendingViews = await rpc<ElicitationRequestView[]>('elicitation.pending');
    expect(pendingViews).toHaveLength(1);
    const view = pendingViews[0]!;
    expect(jsonDepth(view.requestedSchema, 10_000)).toBeLessThanOrEqual(VIEW_MAX_DEPTH + 1);
    expect(view.notices?.join(' ')).toMatch(/nested deeper than 64 levels/);
    await rpc('elicitation.respond', { requestId: view.requestId, action: 'accept', content: { name: 'x' } });
    expect((await call).presentation.text).toBe('action: accept');
  });

  it.each(['2500', '10000'])('a tool schema nested %s levels deep gets the schema budget message', async (depth) => {
    await addApproved(h.host, stdioServer('deep', fixture('hostile-deep.ts'), {}, { HOSTILE_DEEP_SCHEMA: '1', HOSTILE_DEPTH: depth }));
    const report = await rpc<RefreshReport>('catalog.refresh', { id: 'deep' });
    const line = report.servers.find((s) => s.id === 'deep');
    expect(line?.ok).toBe(false);
    expect(line?.error).toMatch(/deep_schema.*input schema nested deeper than 64 levels/);
    expect(line?.error).not.toMatch(/call stack/);
  });
});
