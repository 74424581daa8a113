// Tasks extension: a hand-written stdio server that answers tools/call with a task handle.
import { afterEach, describe, expect, it } from 'vitest';
import { pollInterval, readTask } from '../../../electron/core/calls/call-runner.js';
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
