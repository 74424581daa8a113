// Tasks extension: a hand-written stdio server that answers tools/call with a task handle.
import { SdkErrorCode } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pollInterval, readTask, tasksMeta } from '../../../electron/core/calls/call-runner.js';
import { connectFixture, serverConfig, serviceFor, StaticCatalog, until, type Connected } from './helpers.js';

describe('tasks extension', () => {
  let conn: Connected | undefined;
  afterEach(async () => {
    await conn?.close();
    conn = undefined;
  });

  async function setup(over: Parameters<typeof serverConfig>[1] = {}, env: Record<string, string> = {}) {
    conn = await connectFixture('calls-tasks-raw.ts', 'legacy', env);
    const catalog = await StaticCatalog.from('tk', conn.client);
    return { conn, ...serviceFor([serverConfig('tk', { tasks: true, ...over })], { tk: conn.client }, catalog) };
  }

  it('polls a long task to completion at the clamped interval and shows its status', async () => {
    const { service, events, conn } = await setup();
    const o = await service.call({ name: 'mcp__tk__long', arguments: { ms: 1200 }, callId: 'task-1' });
    expect(o.status).toBe('ok');
    expect(o.presentation.text).toBe('task t1 finished after 1200ms');
    const statuses = events
      .progress('task-1')
      .filter((p) => p.phase === 'task')
      .map((p) => p.task!.status);
    expect(statuses[0]).toBe('working');
    expect(statuses.at(-1)).toBe('completed');
    const gets = conn
      .stderr()
      .split('\n')
      .filter((l) => l.startsWith('tasks/get'))
      .map((l) => Number(l.split(' ')[2]));
    expect(gets.length).toBeGreaterThanOrEqual(3);
    // The server suggests 100 ms; polling is clamped to at least 250 ms.
    for (let i = 1; i < gets.length; i++) expect(gets[i]! - gets[i - 1]!).toBeGreaterThanOrEqual(240);
  });

  it('without the opt-in the server answers directly', async () => {
    const { service } = await setup({ tasks: false });
    const o = await service.call({ name: 'mcp__tk__long', arguments: { ms: 1200 } });
    expect(o.presentation.text).toBe('direct answer');
  });

  it('cancel sends tasks/cancel and the call ends as cancelled', async () => {
    const { service, events, conn } = await setup();
    const pending = service.call({ name: 'mcp__tk__long', arguments: { ms: 20_000 }, callId: 'task-2' });
    await until(() => events.progress('task-2').some((p) => p.phase === 'task'));
    service.cancel('task-2');
    const o = await pending;
    expect(o.status).toBe('cancelled');
    await until(() => conn.stderr().includes('task-cancelled t1'), 3000);
  });

  it('a task past its max wait is cancelled and the call times out', async () => {
    const { service, conn } = await setup({ timeouts: { taskMaxWaitSecs: 0.8 } });
    const o = await service.call({ name: 'mcp__tk__long', arguments: { ms: 20_000 } });
    expect(o.status).toBe('timeout');
    expect(o.error?.message).toMatch(/did not finish within 0.8 s/);
    await until(() => conn.stderr().includes('task-cancelled t1'), 3000);
  });

  it('the logical deadline also walks away from a task and cancels it', async () => {
    const { service, conn } = await setup({ timeouts: { callSecs: 0.7 } });
    const o = await service.call({ name: 'mcp__tk__long', arguments: { ms: 20_000 } });
    expect(o.status).toBe('timeout');
    await until(() => conn.stderr().includes('task-cancelled t1'), 3000);
  });
});

describe('task helpers', () => {
  it('clamps the poll interval to 250 ms–10 s', () => {
    expect(pollInterval(10)).toBe(250);
    expect(pollInterval(60_000)).toBe(10_000);
    expect(pollInterval(1234)).toBe(1234);
    expect(pollInterval(undefined)).toBe(1000);
  });

  it('reads both task handle shapes and ignores ordinary results', () => {
    expect(readTask({ resultType: 'task', taskId: 'a', status: 'working', pollIntervalMs: 5 })).toMatchObject({
      taskId: 'a',
      pollIntervalMs: 5,
      v1: false,
    });
    expect(readTask({ task: { taskId: 'b', status: 'working', pollInterval: 7 } })).toMatchObject({
      taskId: 'b',
      pollIntervalMs: 7,
      v1: true,
    });
    expect(readTask({ content: [{ type: 'text', text: 'x' }] })).toBeUndefined();
  });
});

// The same fixture reached through `server/discover` (2026-07-28): the SDK client alone rejects a task
// handle there, so the runner sends the initiating tools/call on its raw path and keeps the same policy.
describe('tasks extension on a 2026-07-28 session', () => {
  let conn: Connected | undefined;
  afterEach(async () => {
    await conn?.close();
    conn = undefined;
  });

  async function setup(over: Parameters<typeof serverConfig>[1] = {}) {
    conn = await connectFixture('calls-tasks-raw.ts', 'modern', {}, { elicitation: {} });
    expect(conn.client.getProtocolEra()).toBe('modern');
    const catalog = await StaticCatalog.from('tk', conn.client);
    return { conn, ...serviceFor([serverConfig('tk', { tasks: true, ...over })], { tk: conn.client }, catalog) };
  }

  it('the bare SDK client rejects the task handle (why the raw path exists)', async () => {
    const { conn } = await setup();
    const call = conn.client.request(
      { method: 'tools/call', params: { name: 'long', arguments: { ms: 100 }, _meta: tasksMeta(conn.client) } },
      z.looseObject({}),
    );
    await expect(call).rejects.toMatchObject({ code: SdkErrorCode.UnsupportedResultType });
  });

  it('polls a long task to completion at the clamped interval, with the tasks extension declared on every leg', async () => {
    const { service, events, conn } = await setup();
    const o = await service.call({ name: 'mcp__tk__long', arguments: { ms: 1200 }, callId: 'm-task-1' });
    expect(o.status).toBe('ok');
    expect(o.presentation.text).toBe('task t1 finished after 1200ms');
    const statuses = events
      .progress('m-task-1')
      .filter((p) => p.phase === 'task')
      .map((p) => p.task!.status);
    expect(statuses[0]).toBe('working');
    expect(statuses.at(-1)).toBe('completed');
    const lines = conn.stderr().split('\n');
    const gets = lines.filter((l) => l.startsWith('tasks/get')).map((l) => Number(l.split(' ')[2]));
    expect(gets.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < gets.length; i++) expect(gets[i]! - gets[i - 1]!).toBeGreaterThanOrEqual(240);
    // The per-request envelope keeps the client's own capabilities and adds the extension.
    expect(lines).toContain('envelope tools/call 2026-07-28 tasks=yes elicitation=yes');
    expect(lines).toContain('envelope tasks/get 2026-07-28 tasks=yes elicitation=yes');
    // The SDK client still works on the same connection afterwards.
    expect((await conn.client.listTools()).tools.map((t) => t.name)).toEqual(['long']);
  });

  it('without the opt-in the server answers directly', async () => {
    const { service, conn } = await setup({ tasks: false });
    const o = await service.call({ name: 'mcp__tk__long', arguments: { ms: 1200 } });
    expect(o.presentation.text).toBe('direct answer');
    expect(conn.stderr()).toContain('envelope tools/call 2026-07-28 tasks=no elicitation=yes');
  });

  it('cancel sends tasks/cancel and the call ends as cancelled', async () => {
    const { service, events, conn } = await setup();
    const pending = service.call({ name: 'mcp__tk__long', arguments: { ms: 20_000 }, callId: 'm-task-2' });
    await until(() => events.progress('m-task-2').some((p) => p.phase === 'task'));
    service.cancel('m-task-2');
    const o = await pending;
    expect(o.status).toBe('cancelled');
    await until(() => conn.stderr().includes('task-cancelled t1'), 3000);
    expect(conn.stderr()).toContain('envelope tasks/cancel 2026-07-28 tasks=yes elicitation=yes');
  });

  it('a task past its max wait is cancelled and the call times out', async () => {
    const { service, conn } = await setup({ timeouts: { taskMaxWaitSecs: 0.8 } });
    const o = await service.call({ name: 'mcp__tk__long', arguments: { ms: 20_000 } });
    expect(o.status).toBe('timeout');
    expect(o.error?.message).toMatch(/did not finish within 0.8 s/);
    await until(() => conn.stderr().includes('task-cancelled t1'), 3000);
  });
});

describe('tasks extension on a 2026-07-28 session: the initiating leg', () => {
  let conn: Connected | undefined;
  afterEach(async () => {
    await conn?.close();
    conn = undefined;
  });

  it('shows progress on the raw tools/call leg, and cancelling it sends notifications/cancelled', async () => {
    conn = await connectFixture('calls-tasks-raw.ts', 'modern');
    const catalog = await StaticCatalog.from('tk', conn.client);
    const { service, events } = serviceFor([serverConfig('tk', { tasks: true })], { tk: conn.client }, catalog);
    const pending = service.call({ name: 'mcp__tk__long', arguments: { ms: 1000, acceptMs: 20_000 }, callId: 'm-leg' });
    await until(() => events.progress('m-leg').some((p) => p.message === 'accepting'));
    service.cancel('m-leg');
    expect((await pending).status).toBe('cancelled');
    await until(() => /request-cancelled switchboard-raw-\d+/.test(conn!.stderr()), 3000);
    // The connection is still usable by the SDK client.
    expect((await conn.client.listTools()).tools).toHaveLength(1);
  });
});
