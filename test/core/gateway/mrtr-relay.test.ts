// A 2026-07-28 server's multi-round tool calls (input_required rounds) through the gateway: each round goes to the
// gateway client with the server's own keys and requests, when the client declared the capability and the server's
// setting for it is on; the client gets its own single-use requestState per round (the server's never leaves
// Switchboard); an altered or replayed one is refused; what the client did not declare stays with Switchboard's
// dialogs; a round left unanswered does not hold a serial server. prompts/get rounds likewise. Also: a resource miss
// has the spec's shape.
import { ProtocolError } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventMap } from '../../../shared/contract.js';
import { WRAPPED_URI_PREFIX } from '../../../electron/core/gateway/namespacing.js';
import { GatewayWorld, textOf, until } from './harness.js';

let w: GatewayWorld;
let token = '';
const dialogs: EventMap['elicitation.requested'][] = [];
let samplingDialogs = 0;

beforeAll(async () => {
  w = new GatewayWorld();
  // The conformance fixture on 2026-07-28, once with every input setting on and once with sampling off.
  await w.addServer('mr', 'conformance-everything.ts', {
    lifecycle: 'discover',
    elicitation: true,
    sampling: true,
    roots: true,
    resources: true,
  });
  await w.addServer('nos', 'conformance-everything.ts', { lifecycle: 'discover', elicitation: true, roots: true });
  // And on 2025-11-25: the SDK turns its rounds into server requests (sampling/createMessage) to Switchboard.
  await w.addServer('old', 'conformance-everything.ts', { lifecycle: 'initialize', sampling: true });
  await w.enable();
  ({ token } = await w.client('relayer', { mode: 'all', writes: 'allow' }));
  w.host.events.subscribe((event, payload) => {
    if (event === 'elicitation.requested') dialogs.push(payload as EventMap['elicitation.requested']);
    if (event === 'sampling.requested') samplingDialogs++;
  });
}, 120_000);
afterAll(async () => w?.close());

/** A JSON-RPC response as the tests read it (`result` is read only where the test expects one). */
interface Wire {
  id?: number;
  result: {
    resultType?: string;
    inputRequests: Record<string, { method: string; params?: Record<string, unknown> }>;
    requestState: string;
    isError?: boolean;
    content?: unknown;
  };
  error?: { code: number; message: string };
}

const ALL = { sampling: {}, elicitation: {}, roots: { listChanged: true } };
let nextId = 1;

/** One stateless 2026-07-28 request to the gateway, as a raw JSON-RPC message; returns the response message. */
async function raw(method: string, params: Record<string, unknown>, capabilities: Record<string, unknown> = ALL): Promise<Wire> {
  const id = nextId++;
  const res = await fetch(w.url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': capabilities,
        },
      },
    }),
  });
  const body = await res.text();
  const messages = (
    res.headers.get('content-type')?.includes('text/event-stream')
      ? body
          .split(/\r?\n/)
          .filter((l) => l.startsWith('data:'))
          .map((l) => JSON.parse(l.slice(5)))
      : [JSON.parse(body)]
  ) as Wire[];
  const found = messages.find((m) => m.id === id);
  if (!found || (found.result === undefined && found.error === undefined))
    throw new Error(`no response to ${method}: HTTP ${res.status} ${body.slice(0, 300)}`);
  return found;
}

const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });
const sampled = (text: string) => ({ role: 'assistant', content: { type: 'text', text }, model: 'test-model', stopReason: 'endTurn' });

describe('a raw 2026-07-28 gateway client', () => {
  it("gets one round with the server's three requests under the server's keys, and its answers reach the server", async () => {
    const first = await raw('tools/call', { name: 'mcp__mr__test_input_required_result_multiple_inputs', arguments: {} });
    const r1 = first.result;
    expect(r1.resultType).toBe('input_required');
    expect(Object.keys(r1.inputRequests).sort()).toEqual(['client_roots', 'greeting', 'user_info']);
    expect(r1.inputRequests.greeting).toMatchObject({ method: 'sampling/createMessage', params: { maxTokens: 100 } });
    expect(r1.inputRequests.client_roots).toMatchObject({ method: 'roots/list' });
    expect(r1.inputRequests.user_info).toMatchObject({ method: 'elicitation/create', params: { message: 'What is your name?' } });
    expect(typeof r1.requestState).toBe('string');
    const done = await raw('tools/call', {
      name: 'mcp__mr__test_input_required_result_multiple_inputs',
      arguments: {},
      requestState: r1.requestState,
      inputResponses: {
        user_info: accept({ name: 'Alice' }),
        greeting: sampled('Hello there!'),
        client_roots: { roots: [{ uri: 'file:///test/root', name: 'Test Root' }] },
      },
    });
    expect(done.result.resultType).toBe('complete');
    expect(textOf(done.result)).toContain('"name":"Alice"');
    expect(textOf(done.result)).toContain('Hello there!');
  });

  it("keeps the server's requestState to itself: a fresh token per round, each used once; altered or replayed is -32602", async () => {
    const name = 'mcp__mr__test_input_required_result_multi_round';
    const r1 = (await raw('tools/call', { name, arguments: {} })).result;
    expect(Object.keys(r1.inputRequests)).toEqual(['step1']);
    // The fixture's own state is signed (body.mac); the client holds only the gateway's token.
    expect(r1.requestState).not.toContain('.');
    const tampered = await raw('tools/call', { name, arguments: {}, requestState: `${r1.requestState}-TAMPERED`, inputResponses: {} });
    expect(tampered.error?.code).toBe(-32602);
    const r2 = (
      await raw('tools/call', { name, arguments: {}, requestState: r1.requestState, inputResponses: { step1: accept({ name: 'Bo' }) } })
    ).result;
    expect(Object.keys(r2.inputRequests)).toEqual(['step2']);
    expect(r2.requestState).not.toBe(r1.requestState);
    const replay = await raw('tools/call', {
      name,
      arguments: {},
      requestState: r1.requestState,
      inputResponses: { step1: accept({ name: 'Eve' }) },
    });
    expect(replay.error?.code).toBe(-32602);
    const r3 = (
      await raw('tools/call', { name, arguments: {}, requestState: r2.requestState, inputResponses: { step2: accept({ color: 'blue' }) } })
    ).result;
    expect(r3.resultType).toBe('complete');
    expect(textOf(r3)).toBe('Done: Bo likes blue');
  });

  it("relays only what the client declared; the rest goes to Switchboard's own dialog", async () => {
    const before = dialogs.length;
    const name = 'mcp__mr__test_input_required_result_capabilities';
    const r1 = (await raw('tools/call', { name, arguments: {} }, { sampling: {} })).result;
    expect(r1.resultType).toBe('input_required');
    expect(Object.values(r1.inputRequests).map((r) => r.method)).toEqual(['sampling/createMessage']);
    await until(() => dialogs.length > before, 20_000, 'the dialog for the elicitation');
    const request = dialogs.at(-1)!.request;
    expect(request).toMatchObject({ serverId: 'mr', message: 'Anything to add?' });
    await w.host.interaction.elicitation.respond(request.requestId, 'accept', { note: 'from the person' });
    const done = await raw(
      'tools/call',
      {
        name,
        arguments: {},
        requestState: r1.requestState,
        inputResponses: { [Object.keys(r1.inputRequests)[0]!]: sampled('said') },
      },
      { sampling: {} },
    );
    expect(done.result.resultType).toBe('complete');
  });

  it("never relays what the server's setting turns off: sampling off stops the call with the setting named", async () => {
    const r = (await raw('tools/call', { name: 'mcp__nos__test_input_required_result_sampling', arguments: {} })).result;
    expect(r.resultType).toBe('complete');
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/sampling/i);
  });

  it('refuses responses of the wrong shape as invalid params', async () => {
    const name = 'mcp__mr__test_input_required_result_sampling';
    const r1 = (await raw('tools/call', { name, arguments: {} })).result;
    const bad = await raw('tools/call', {
      name,
      arguments: {},
      requestState: r1.requestState,
      inputResponses: { capital_question: { nope: 1 } },
    });
    expect(bad.error?.code).toBe(-32602);
  });

  it('a round left unanswered gives the serial server back: another call runs meanwhile', async () => {
    const r1 = (await raw('tools/call', { name: 'mcp__mr__test_input_required_result_elicitation', arguments: {} })).result;
    expect(r1.resultType).toBe('input_required');
    const other = (await raw('tools/call', { name: 'mcp__mr__test_simple_text', arguments: {} })).result;
    expect(textOf(other)).toBe('This is a simple text response for testing.');
  });
});

describe('prompts/get rounds', () => {
  it("go to a client that can answer them, under the server's key, with a single-use token", async () => {
    const name = 'mcp__mr__test_input_required_result_prompt';
    const r1 = (await raw('prompts/get', { name })).result;
    expect(r1.resultType).toBe('input_required');
    expect(Object.keys(r1.inputRequests)).toEqual(['user_context']);
    const done = await raw('prompts/get', {
      name,
      requestState: r1.requestState,
      inputResponses: { user_context: accept({ context: 'the garden' }) },
    });
    expect(JSON.stringify(done.result)).toContain('Use this context: the garden');
    const replay = await raw('prompts/get', { name, requestState: r1.requestState, inputResponses: { user_context: accept({}) } });
    expect(replay.error?.code).toBe(-32602);
  });

  it("stay with Switchboard's own dialog for a client that did not declare elicitation", async () => {
    const before = dialogs.length;
    const got = raw('prompts/get', { name: 'mcp__mr__test_input_required_result_prompt' }, {});
    await until(() => dialogs.length > before, 20_000, 'the dialog for the prompt');
    const request = dialogs.at(-1)!.request;
    expect(request).toMatchObject({ serverId: 'mr', message: 'What context should the prompt use?' });
    await w.host.interaction.elicitation.respond(request.requestId, 'accept', { context: 'from the person' });
    expect(JSON.stringify((await got).result)).toContain('Use this context: from the person');
  });
});

describe.each(['modern', 'legacy'] as const)('an SDK v2 client on %s', (era) => {
  it('answers sampling and roots rounds with its own handlers', async () => {
    const c = await w.http(token, era, { sampling: {}, roots: {} }, (client) => {
      client.setRequestHandler('sampling/createMessage', async () => sampled(`Paris-${era}`) as never);
      client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: `file:///${era}`, name: era }] }));
    });
    const s = await c.callTool({ name: 'mcp__mr__test_input_required_result_sampling', arguments: {} });
    expect(textOf(s)).toBe(`Sampling said: Paris-${era}`);
    const r = await c.callTool({ name: 'mcp__mr__test_input_required_result_list_roots', arguments: {} });
    expect(textOf(r)).toBe(`Roots: file:///${era}`);
  });

  it("answers a 2025-11-25 server's sampling/createMessage during its call", async () => {
    const asked: unknown[] = [];
    const c = await w.http(token, era, { sampling: {} }, (client) =>
      client.setRequestHandler('sampling/createMessage', async (req) => {
        asked.push(req.params);
        return sampled(`relayed-${era}`) as never;
      }),
    );
    const before = samplingDialogs;
    const r = await c.callTool({ name: 'mcp__old__test_sampling', arguments: { prompt: 'Capital of France?' } });
    // The call has ended: a by-hand dialog would have opened before its answer.
    expect(samplingDialogs).toBe(before);
    expect(textOf(r)).toBe(`LLM response: relayed-${era}`);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ maxTokens: 100, messages: [{ role: 'user', content: { type: 'text', text: 'Capital of France?' } }] });
  });

  it('answers a prompt round with its own elicitation handler', async () => {
    const c = await w.http(token, era, { elicitation: { form: {} } }, (client) =>
      client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { context: `ctx-${era}` } })),
    );
    const prompt = await c.getPrompt({ name: 'mcp__mr__test_input_required_result_prompt' });
    expect(JSON.stringify(prompt.messages)).toContain(`Use this context: ctx-${era}`);
  });

  it("reads a missing resource as the spec's not-found: -32602 with data.uri the client's uri", async () => {
    const c = await w.http(token, era);
    // One the server says it lacks, and one no server in the profile could have.
    for (const uri of [`${WRAPPED_URI_PREFIX}mr/test://nonexistent-resource`, 'test://no-server-has-this']) {
      const err: unknown = await c.readResource({ uri }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProtocolError);
      expect((err as ProtocolError).code).toBe(-32602);
      expect((err as ProtocolError).data).toEqual({ uri });
    }
  });
});
