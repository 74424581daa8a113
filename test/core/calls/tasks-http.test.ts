// Tasks extension over Streamable HTTP on a 2026-07-28 (stateless) session: the runner's raw tools/call leg
// rides the SDK's own HTTP transport (one POST per request), and tasks/get / tasks/cancel go through the SDK.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServerConfigInput } from '../../../shared/config.js';
import { startTasksHttpServer, type TasksHttpServer } from '../../fixtures/servers/calls-tasks-http.js';
import { cleanup, tempDir } from '../../shared/support/harness.js';
import { addApproved, makeSessionHost, type SessionHarness } from '../sessions/helpers.js';
import { serviceFor, StaticCatalog, until } from './helpers.js';

let dir: string;
let h: SessionHarness;
let srv: TasksHttpServer;

beforeEach(async () => {
  dir = tempDir('sb-tasks-http-');
  h = makeSessionHost(dir);
  srv = await startTasksHttpServer();
});

afterEach(async () => {
  await h.host.shutdown();
  await srv.close();
  cleanup(dir);
});

/** Connects server `tk` over HTTP through the Host's session manager and builds a call service on its client. */
async function setup(over: Partial<ServerConfigInput> = {}) {
  await addApproved(h.host, { id: 'tk', name: 'tk', startup: 'manual', transport: { type: 'http', url: srv.url }, tasks: true, ...over });
  expect(await h.sessions.connect('tk')).toMatchObject({ state: 'connected', protocolVersion: '2026-07-28' });
  const client = await h.sessions.client('tk');
  expect(client.getProtocolEra()).toBe('modern');
  const catalog = await StaticCatalog.from('tk', client);
  return { client, ...serviceFor([h.host.config('tk')], { tk: client }, catalog) };
}

/** The server's request lines for one method. */
const requests = (method: string): string[] => srv.log.filter((l) => l.startsWith(`${method} `));

describe('tasks extension over Streamable HTTP (2026-07-28)', () => {
  it('polls a long task to completion, every leg carrying the 2026-07-28 headers and the extension', async () => {
    const { service, events, client } = await setup({ lifecycle: 'discover' });
    const o = await service.call({ name: 'mcp__tk__long', arguments: { ms: 600 }, callId: 'h-task-1' });
    expect(o.status).toBe('ok');
    expect(o.presentation.text).toBe('task t1 finished after 600ms');
    const statuses = events
      .progress('h-task-1')
      .filter((p) => p.phase === 'task')
      .map((p) => p.task!.status);
    expect(statuses[0]).toBe('working');
    expect(statuses.at(-1)).toBe('completed');
    // The initiating leg went raw on the SDK's transport and still carried the per-request headers.
    expect(requests('tools/call')).toEqual(['tools/call 2026-07-28 tasks=yes']);
    expect(srv.log).toContain('task-created t1');
    const gets = requests('tasks/get');
    expect(gets.length).toBeGreaterThanOrEqual(2);
    for (const line of gets) expect(line).toBe('tasks/get 2026-07-28 tasks=yes');
    expect(srv.log.filter((l) => l.startsWith('rejected'))).toEqual([]);
    // The SDK client still works on the same connection afterwards.
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['long']);
  });

  it('cancel sends tasks/cancel and the call ends as cancelled', async () => {
    const { service, events } = await setup();
    const pending = service.call({ name: 'mcp__tk__long', arguments: { ms: 20_000 }, callId: 'h-task-2' });
    await until(() => events.progress('h-task-2').some((p) => p.phase === 'task'));
    service.cancel('h-task-2');
    const o = await pending;
    expect(o.status).toBe('cancelled');
    await until(() => srv.log.includes('task-cancelled t1'), 3000);
    expect(requests('tasks/cancel')).toEqual(['tasks/cancel 2026-07-28 tasks=yes']);
  });

  it('cancelling the slow initiating leg closes its POST and creates no task', async () => {
    const { service, events, client } = await setup();
    const pending = service.call({ name: 'mcp__tk__long', arguments: { ms: 1000, acceptMs: 20_000 }, callId: 'h-leg' });
    await until(() => events.progress('h-leg').some((p) => p.message === 'accepting'));
    service.cancel('h-leg');
    expect((await pending).status).toBe('cancelled');
    await until(() => srv.log.includes('aborted tools/call'), 3000);
    expect(srv.log.some((l) => l.startsWith('task-created'))).toBe(false);
    expect((await client.listTools()).tools).toHaveLength(1);
  });

  it('without the opt-in the server answers directly', async () => {
    const { service } = await setup({ tasks: false });
    const o = await service.call({ name: 'mcp__tk__long', arguments: { ms: 600 } });
    expect(o.status).toBe('ok');
    expect(o.presentation.text).toBe('direct answer');
    expect(requests('tools/call')).toEqual(['tools/call 2026-07-28 tasks=no']);
    expect(requests('tasks/get')).toEqual([]);
    expect(srv.log.some((l) => l.startsWith('task-created'))).toBe(false);
  });
});
