// @modelcontextprotocol/server-everything over stdio through the real Host with the client features on and off:
// which tools it lists, sampling answered by hand, roots sent on roots/list (and re-read after list_changed), the
// research task in the 2025-11-25 task form, and what each tool says when its setting is off.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventMap } from '../../../shared/contract.js';
import type { ServerConfigInput } from '../../../shared/config.js';
import { createDispatcher } from '../../../electron/core/dispatcher.js';
import { createHandlers } from '../../../electron/core/handlers.js';
import { cleanup, tempDir } from '../../shared/support/harness.js';
import { addApproved, makeSessionHost, until, type SessionHarness } from '../sessions/helpers.js';

const everything = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
const CONDITIONAL = ['get-roots-list', 'trigger-sampling-request', 'trigger-sampling-request-async', 'trigger-elicitation-request-async'];

function server(id: string, extra: Partial<ServerConfigInput>): ServerConfigInput {
  return {
    id,
    name: id === 'on' ? 'Everything (features on)' : 'Everything (features off)',
    transport: { type: 'stdio', command: process.execPath, args: [everything, 'stdio'] },
    startup: 'manual',
    lifecycle: 'initialize',
    ...extra,
  };
}

let dir: string;
let h: SessionHarness;

beforeAll(async () => {
  dir = tempDir('sb-features-');
  h = makeSessionHost(dir);
  await addApproved(h.host, server('on', { elicitation: true, sampling: true, roots: true, tasks: true }));
  await addApproved(h.host, server('off', { elicitation: true }));
}, 60_000);

afterAll(async () => {
  await h.host.shutdown();
  cleanup(dir);
});

async function toolNames(id: string): Promise<string[]> {
  const client = await h.sessions.client(id);
  return (await client.listTools()).tools.map((t) => t.name);
}

function samplingRequests(): EventMap['sampling.requested']['request'][] {
  return h.events.filter((e) => e.event === 'sampling.requested').map((e) => (e.payload as EventMap['sampling.requested']).request);
}

describe('server-everything with sampling, roots, elicitation and tasks on', () => {
  it('lists every tool, including the four that need sampling, roots or client-side tasks', async () => {
    const on = await toolNames('on');
    const off = await toolNames('off');
    for (const name of CONDITIONAL) {
      expect(on).toContain(name);
      expect(off).not.toContain(name);
    }
    expect(on.length).toBe(off.length + CONDITIONAL.length);
  }, 60_000);

  it('sends the typed reply of a sampling request back to the server', async () => {
    await h.host.catalog.refresh('on');
    const before = samplingRequests().length;
    const call = h.host.calls.call({ name: 'mcp__on__trigger_sampling_request', arguments: { prompt: 'Say hi', maxTokens: 42 } });
    await until(() => samplingRequests().length > before, 15_000, 'sampling request');
    const request = samplingRequests().at(-1)!;
    expect(request).toMatchObject({ serverId: 'on', maxTokens: 42, systemPrompt: 'You are a helpful test server.', temperature: 0.7 });
    expect(request.messages[0]?.content[0]?.text).toContain('Say hi');
    h.host.clientFeatures.sampling.respond(request.requestId, 'accept', { text: 'Hello from a person', stopReason: 'maxTokens' });
    const outcome = await call;
    expect(outcome.status).toBe('ok');
    expect(outcome.presentation.text).toContain('Hello from a person');
    expect(outcome.presentation.text).toContain('switchboard-by-hand');
    expect(outcome.presentation.text).toContain('maxTokens');
  }, 30_000);

  it('a declined sampling request reaches the server as a rejection', async () => {
    const before = samplingRequests().length;
    const call = h.host.calls.call({ name: 'mcp__on__trigger_sampling_request', arguments: { prompt: 'No' } });
    await until(() => samplingRequests().length > before, 15_000, 'sampling request');
    h.host.clientFeatures.sampling.respond(samplingRequests().at(-1)!.requestId, 'decline');
    const outcome = await call;
    expect(outcome.status).toBe('error');
    expect(outcome.presentation.text).toMatch(/declined/i);
  }, 30_000);

  it('answers roots/list with the shared folders and again after they change', async () => {
    const first = await h.host.calls.call({ name: 'mcp__on__get_roots_list', arguments: {} });
    expect(first.presentation.text).toMatch(/no roots are currently configured/i);
    const asked = (): number =>
      h.host.clientFeatures.traffic
        .entries({ serverId: 'on', direction: 'in', method: 'roots/list' })
        .entries.filter((e) => e.kind === 'request').length;
    const before = asked();
    const view = await h.host.clientFeatures.setRoots('on', [{ path: dir, name: 'Test folder' }, { path: `file://${dir}/sub` }]);
    expect(view.rootList.map((r) => r.uri)).toEqual([`file://${dir}`, `file://${dir}/sub`]);
    expect(view.rootList.map((r) => r.exists)).toEqual([true, false]);
    // The list_changed notification makes the server ask for the roots again.
    const sent = h.host.clientFeatures.traffic.entries({ serverId: 'on', direction: 'out', method: 'notifications/roots/list_changed' });
    expect(sent.total).toBe(1);
    await until(() => asked() > before, 10_000, 'roots/list after list_changed');
    const second = await h.host.calls.call({ name: 'mcp__on__get_roots_list', arguments: {} });
    expect(second.presentation.text).toContain(`URI: file://${dir}`);
    expect(second.presentation.text).toContain('(2 total)');
  }, 30_000);

  it('completes the research task in the 2025-11-25 task form', async () => {
    const outcome = await h.host.calls.call({
      name: 'mcp__on__simulate_research_query',
      arguments: { topic: 'tides' },
      callId: 'research-1',
    });
    expect(outcome.status).toBe('ok');
    expect(outcome.presentation.text).toContain('# Research Report: tides');
    const phases = h.events
      .filter((e) => e.event === 'call.progress' && (e.payload as EventMap['call.progress']).callId === 'research-1')
      .map((e) => (e.payload as EventMap['call.progress']).task?.status)
      .filter(Boolean);
    expect(phases[0]).toBe('working');
    expect(phases.at(-1)).toBe('completed');
    const sent = h.host.clientFeatures.traffic.entries({ serverId: 'on', direction: 'out' }).entries.map((e) => e.method);
    expect(sent).toContain('tasks/get');
    expect(sent).toContain('tasks/result');
    // tasks/list shows it, completed, through the contract.
    const dispatch = createDispatcher(createHandlers(h.host));
    const listed = await dispatch('protocol.tasks', { id: 'on' });
    expect(listed).toMatchObject({ ok: true, value: { supported: true } });
    const tasks = (listed as { value: { tasks: { status: string; statusMessage?: string }[] } }).value.tasks;
    expect(tasks.some((t) => t.status === 'completed')).toBe(true);
  }, 30_000);
});

describe('server-everything with the options off', () => {
  it('the research tool says which setting turns tasks on instead of a raw -32601', async () => {
    await h.host.catalog.refresh('off');
    const outcome = await h.host.calls.call({ name: 'mcp__off__simulate_research_query', arguments: { topic: 'tides' } });
    expect(outcome.status).toBe('error');
    expect(outcome.error?.message).toBe(
      "This tool runs as a task. Turn on 'Run tools as tasks' in this server's settings (Client features).",
    );
    expect(outcome.presentation.text).not.toContain('-32601');
  }, 30_000);
});
