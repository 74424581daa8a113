// A tool that answers with a task works through the gateway for a legacy (2025-11-25) client: Switchboard polls the
// task as for a call from the UI and the gateway client gets the result; a client that gives up cancels the task.
// A 2026-07-28 client that does not negotiate the tasks extension is called upstream without it (the extension is
// opt-in per request), so the server answers directly; the relay for clients that negotiate it is tasks-relay.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayWorld, textOf, until } from './harness.js';

let w: GatewayWorld;
let token = '';

beforeAll(async () => {
  w = new GatewayWorld();
  await w.addServer('tk', 'calls-tasks-raw.ts', { tasks: true, lifecycle: 'initialize' });
  await w.enable();
  ({ token } = await w.client('tasker', { mode: 'all', writes: 'allow' }));
}, 120_000);
afterAll(async () => w?.close());

it("a 2026-07-28 client without the tasks extension gets the server's direct answer, and no task is started", async () => {
  const c = await w.http(token, 'modern');
  const created = w.h.sessions.logs('tk').filter((l) => l.text.startsWith('task-created')).length;
  const result = await c.callTool({ name: 'mcp__tk__long', arguments: { ms: 800 } });
  expect(result.isError).not.toBe(true);
  expect(textOf(result)).toBe('direct answer');
  expect(w.h.sessions.logs('tk').filter((l) => l.text.startsWith('task-created')).length).toBe(created);
});

describe.each(['legacy'] as const)('tasks through the gateway, %s client', (era) => {
  it('a task runs to completion and its result reaches the client', async () => {
    const c = await w.http(token, era);
    const result = await c.callTool({ name: 'mcp__tk__long', arguments: { ms: 800 } });
    expect(result.isError).not.toBe(true);
    expect(textOf(result)).toMatch(/^task t\d+ finished after 800ms$/);
    expect(w.h.sessions.logs('tk').some((l) => l.text.startsWith('tasks/get'))).toBe(true);
  });

  it('a client that gives up cancels the task', async () => {
    const c = await w.http(token, era);
    const controller = new AbortController();
    const created = w.h.sessions.logs('tk').filter((l) => l.text.startsWith('task-created')).length;
    const call = c.callTool({ name: 'mcp__tk__long', arguments: { ms: 60_000 } }, { signal: controller.signal });
    await until(() => w.h.sessions.logs('tk').filter((l) => l.text.startsWith('task-created')).length > created, 20_000, 'the task');
    const cancelled = w.h.sessions.logs('tk').filter((l) => l.text.startsWith('task-cancelled')).length;
    controller.abort();
    await expect(call).rejects.toThrow();
    await until(
      () => w.h.sessions.logs('tk').filter((l) => l.text.startsWith('task-cancelled')).length > cancelled,
      20_000,
      'tasks/cancel',
    );
  });
});
