// The tasks extension served by the gateway (io.modelcontextprotocol/tasks, 2026-07-28): a client that negotiates
// it gets the upstream server's task under a gateway-side id (never the server's), and its tasks/get, tasks/update
// and tasks/cancel reach that server; another gateway client cannot see or cancel the task; a failed task's error
// reaches the client; a client that did not negotiate the extension gets -32021 for the tasks methods and the
// finished result for a call, as before; tasks/result and tasks/list (removed by SEP-2663) are -32601; a finished
// task's result has a normal call result's bounds; an input request the client cannot take goes to the person's
// dialog, or refuses the task when the server's settings do not allow it. Real gateway, real SDK v2 clients
// (requests the SDK's codec would reject go through Switchboard's own raw coordinator on the client's transport),
// the conformance fixture over stdio.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../../../electron/core/calls/raw-request.js';
import type { JsonObject } from '../../../electron/core/json.js';
import type { EventMap } from '../../../shared/contract.js';
import { GatewayWorld, until } from './harness.js';

const TASKS = 'io.modelcontextprotocol/tasks';
let w: GatewayWorld;
let alice = '';
let bob = '';
let carol = '';
const open: Client[] = [];
const dialogs: EventMap['elicitation.requested'][] = [];

beforeAll(async () => {
  w = new GatewayWorld();
  await w.addServer('ct', 'conformance-everything.ts', { lifecycle: 'discover', elicitation: true, tasks: true });
  await w.enable();
  ({ token: alice } = await w.client('alice', { mode: 'all', servers: ['ct'], names: 'original', writes: 'allow' }));
  ({ token: bob } = await w.client('bob', { mode: 'all', servers: ['ct'], names: 'original', writes: 'allow' }));
  // The same fixture with questions turned off in its settings.
  await w.addServer('quiet', 'conformance-everything.ts', { lifecycle: 'discover', elicitation: false, tasks: true });
  ({ token: carol } = await w.client('carol', { mode: 'all', servers: ['quiet'], names: 'original', writes: 'allow' }));
  w.host.events.subscribe((event, payload) => {
    if (event === 'elicitation.requested') dialogs.push(payload as EventMap['elicitation.requested']);
  });
}, 120_000);
afterAll(async () => {
  for (const c of open) await c.close().catch(() => undefined);
  await w?.close();
});

/** A 2026-07-28 SDK v2 client of the gateway; `tasks` declares the extension, `elicitation` (default) the capability. */
async function connect(token: string, tasks: boolean, elicitation = true): Promise<Client> {
  const client = new Client(
    { name: 'tasks-test', version: '1.0.0' },
    {
      capabilities: { ...(elicitation ? { elicitation: {} } : {}), ...(tasks ? { extensions: { [TASKS]: {} } } : {}) },
      versionNegotiation: { mode: 'auto' },
    },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(w.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  open.push(client);
  return client;
}

const call = (c: Client, method: string, params: JsonObject): Promise<JsonObject> => rawRequest(c, method, params, { timeout: 30_000 });

/** Polls tasks/get until the task is terminal (or `status`). */
async function settle(c: Client, taskId: string, status?: string): Promise<JsonObject> {
  let last: JsonObject = {};
  await until(
    async () => {
      last = await call(c, 'tasks/get', { taskId });
      return ['completed', 'failed', 'cancelled', status].includes(String(last.status));
    },
    20_000,
    `task ${taskId}`,
  );
  return last;
}

describe('the gateway relays tasks to a client that negotiated the extension', () => {
  it('answers a task-supporting call with a task under a gateway id, and inlines the result on tasks/get', async () => {
    const c = await connect(alice, true);
    const discovered = await c.discover();
    expect(discovered.capabilities.extensions?.[TASKS]).toBeDefined();
    const created = await call(c, 'tools/call', { name: 'slow_compute', arguments: { seconds: 1, label: 'relay' } });
    expect(created.resultType).toBe('task');
    expect(created.taskId).toEqual(expect.any(String));
    expect(String(created.taskId)).not.toMatch(/fixture-task/);
    const done = await settle(c, String(created.taskId));
    expect(done).toMatchObject({ taskId: created.taskId, status: 'completed', resultType: 'complete' });
    expect(JSON.stringify(done)).not.toMatch(/fixture-task/);
    expect((done.result as { content: { text: string }[] }).content[0]!.text).toBe('Computed relay after 1s');
  });

  it('another gateway client can neither get nor cancel the task; its owner can cancel it', async () => {
    const a = await connect(alice, true);
    const b = await connect(bob, true);
    const created = await call(a, 'tools/call', { name: 'slow_compute', arguments: { seconds: 60, label: 'mine' } });
    const taskId = String(created.taskId);
    await expect(call(b, 'tasks/get', { taskId })).rejects.toMatchObject({ code: -32602 });
    await expect(call(b, 'tasks/cancel', { taskId })).rejects.toMatchObject({ code: -32602 });
    expect((await call(a, 'tasks/get', { taskId })).status).toBe('working');
    const ack = await call(a, 'tasks/cancel', { taskId });
    expect(ack.resultType).toBe('complete');
    expect(ack).not.toHaveProperty('status');
    expect((await settle(a, taskId)).status).toBe('cancelled');
  });

  it('a task that fails upstream reaches the client as failed with the error, no result', async () => {
    const c = await connect(alice, true);
    const created = await call(c, 'tools/call', { name: 'protocol_error_job', arguments: {} });
    const done = await settle(c, String(created.taskId));
    expect(done.status).toBe('failed');
    expect(done.error).toEqual({ code: -32603, message: 'Simulated internal failure' });
    expect(done).not.toHaveProperty('result');
  });

  it('relays a task input request and the answer given with tasks/update', async () => {
    const c = await connect(alice, true);
    const created = await call(c, 'tools/call', { name: 'confirm_delete', arguments: { filename: 'a.txt' } });
    const waiting = await settle(c, String(created.taskId), 'input_required');
    expect(Object.keys(waiting.inputRequests as JsonObject)).toEqual(['confirm']);
    const ack = await call(c, 'tasks/update', {
      taskId: created.taskId as string,
      inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
    });
    expect(ack.resultType).toBe('complete');
    expect(ack).not.toHaveProperty('taskId');
    const done = await settle(c, String(created.taskId));
    expect((done.result as { content: { text: string }[] }).content[0]!.text).toBe('Deleted a.txt');
  });
});

describe('the tasks extension as SEP-2663 defines it', () => {
  it('answers tasks/result and tasks/list, which the extension removed, with -32601', async () => {
    const c = await connect(alice, true);
    // On 2026-07-28 HTTP the JSON-RPC error travels with status 404; the SDK client hands back the body.
    const code = async (method: string, params: JsonObject): Promise<unknown> => {
      const err = (await call(c, method, params).then(
        () => undefined,
        (e: unknown) => e,
      )) as { code?: unknown; data?: { status?: number; text?: string } } | undefined;
      if (typeof err?.code === 'number') return err.code;
      return (JSON.parse(err?.data?.text ?? '{}') as { error?: { code?: number } }).error?.code;
    };
    expect(await code('tasks/result', { taskId: 'x' })).toBe(-32601);
    expect(await code('tasks/list', {})).toBe(-32601);
  });
});

describe('a relayed task is held to what a normal gateway call gets', () => {
  it("applies the structured-content budget to a finished task's inline result", async () => {
    const c = await connect(alice, true);
    const created = await call(c, 'tools/call', { name: 'big_structured_job', arguments: {} });
    expect(created.resultType).toBe('task');
    const done = await settle(c, String(created.taskId));
    expect(done.status).toBe('completed');
    const result = done.result as { content: { text: string }[]; structuredContent?: unknown };
    expect(result).not.toHaveProperty('structuredContent');
    expect(result.content.map((b) => b.text).join('\n')).toMatch(/Structured content \(\d+ bytes\) is over the 262144-byte budget/);
  });

  it("hands an input request the client cannot take to the person's dialog, then passes the answer on", async () => {
    const c = await connect(alice, true, false);
    const before = dialogs.length;
    const created = await call(c, 'tools/call', { name: 'confirm_delete', arguments: { filename: 'b.txt' } });
    const taskId = String(created.taskId);
    // Nothing is the client's to answer: it sees the task working while the person is asked.
    const seen = await settle(c, taskId, 'working');
    expect(seen).not.toHaveProperty('inputRequests');
    await until(() => dialogs.length > before, 20_000, 'the dialog for the task question');
    const request = dialogs.at(-1)!.request;
    expect(request).toMatchObject({ serverId: 'ct', message: 'Delete b.txt?' });
    await w.host.interaction.elicitation.respond(request.requestId, 'accept', { confirm: true });
    const done = await settle(c, taskId);
    expect((done.result as { content: { text: string }[] }).content[0]!.text).toBe('Deleted b.txt');
  });

  it("refuses at once a task whose request the server's settings do not allow, saying which setting", async () => {
    const c = await connect(carol, true);
    const created = await call(c, 'tools/call', { name: 'confirm_delete', arguments: { filename: 'c.txt' } });
    const done = await settle(c, String(created.taskId));
    expect(done.status).toBe('failed');
    expect((done.error as { message: string }).message).toMatch(/Turn on .* in this server's settings.*The task was cancelled/);
    // Later polls keep the refusal; the upstream task was told to stop.
    expect((await call(c, 'tasks/get', { taskId: String(created.taskId) })).status).toBe('failed');
    const sampled = await call(c, 'tools/call', { name: 'ask_sampling', arguments: {} });
    const refused = await settle(c, String(sampled.taskId));
    expect((refused.error as { message: string }).message).toMatch(/sampling/i);
  });
});

describe('a client that did not negotiate the extension', () => {
  it('gets -32021 for the tasks methods and a finished result for a task-supporting call', async () => {
    const c = await connect(alice, false);
    await expect(call(c, 'tasks/get', { taskId: 'x' })).rejects.toMatchObject({ code: -32021 });
    await expect(call(c, 'tasks/cancel', { taskId: 'x' })).rejects.toMatchObject({ code: -32021 });
    const result = await call(c, 'tools/call', { name: 'slow_compute', arguments: { seconds: 0, label: 'sync' } });
    expect(result).not.toHaveProperty('taskId');
    expect((result.content as { text: string }[])[0]!.text).toBe('Computed sync after 0s');
  });

  it('gets -32021 naming the extension for a tool that runs only as a task', async () => {
    const c = await connect(alice, false);
    await expect(call(c, 'tools/call', { name: 'failing_job', arguments: {} })).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
    });
  });
});
