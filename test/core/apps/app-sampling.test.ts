// An app's sampling/createMessage through the contract against the apps fixture over stdio: refused until the
// person lets the server's apps ask, then queued in the same answer-by-hand queue as a server's, marked as the app's;
// the reply goes back to the app; the launch's call budget counts it; closing the launch withdraws what waits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventMap, InvokeResult } from '../../../shared/contract.js';
import { APP_SAMPLING_MAX_BYTES } from '../../../electron/core/apps/apps-service.js';
import { APP_CALLS_IN_FLIGHT } from '../../../electron/core/apps/call-limits.js';
import { APPS_FIXTURE, appError, appsHarness, countedStdio, type AppsHarness } from './helpers.js';

let t: AppsHarness;

const PARAMS = { messages: [{ role: 'user', content: { type: 'text', text: 'Name a colour' } }], maxTokens: 20 };

beforeAll(async () => {
  t = await appsHarness((log) => countedStdio('fx', APPS_FIXTURE, log, { lifecycle: 'initialize', timeouts: { requestSecs: 20 } }, []));
  await t.call('catalog.refresh', { id: 'fx' });
}, 60_000);

afterAll(async () => t?.close());

async function openSampler(): Promise<InvokeResult<'apps.open'>> {
  const outcome = await t.call('tools.call', { name: 'mcp__fx__sampler_app', arguments: {} });
  return t.call('apps.open', { callId: outcome.callId });
}

const requested = (): EventMap['sampling.requested']['request'][] =>
  t.h.events.filter((e) => e.event === 'sampling.requested').map((e) => (e.payload as EventMap['sampling.requested']).request);

async function nextRequest(after: number): Promise<EventMap['sampling.requested']['request']> {
  for (;;) {
    const all = requested();
    if (all.length > after) return all[after]!;
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('an app asks for a model reply', () => {
  it('is refused while the server’s apps may not ask, and the launch says so', async () => {
    const launch = await openSampler();
    expect(launch.sampling).toBe(false);
    const err = await appError(() => t.call('apps.createMessage', { launchId: launch.launchId, params: PARAMS }));
    expect(err.code).toBe('sampling_not_enabled');
    expect(err.message).toMatch(/apps may not ask for model replies; allow it on the server's Apps page/);
    expect(requested()).toHaveLength(0);
  });

  it('once allowed, goes to the answer-by-hand queue marked as the app’s, and gets the person’s reply', async () => {
    await t.call('apps.setGrants', { serverId: 'fx', grants: { permissions: [], popups: false, sampling: true } });
    expect((await t.call('apps.server', { serverId: 'fx' })).grants).toEqual({ permissions: [], popups: false, sampling: true });
    const opened = await openSampler();
    expect(opened.sampling).toBe(true);
    const before = requested().length;
    const reply = t.call('apps.createMessage', { launchId: opened.launchId, params: { ...PARAMS, systemPrompt: 'Pick colours' } });
    const req = await nextRequest(before);
    expect(req).toMatchObject({ serverId: 'fx', fromApp: { tool: 'mcp__fx__sampler_app' }, systemPrompt: 'Pick colours', maxTokens: 20 });
    expect(req.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Name a colour' }] }]);
    expect(await t.call('sampling.pending', {})).toEqual([req]);
    await t.call('sampling.respond', { requestId: req.requestId, action: 'accept', reply: { text: 'Teal' } });
    expect(await reply).toEqual({
      role: 'assistant',
      content: { type: 'text', text: 'Teal' },
      model: 'switchboard-by-hand',
      stopReason: 'endTurn',
    });
  });

  it('a declined request is an error to the app', async () => {
    const { launchId } = await openSampler();
    const before = requested().length;
    const reply = t.call('apps.createMessage', { launchId, params: PARAMS }).then(
      () => 'answered',
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
    const req = await nextRequest(before);
    await t.call('sampling.respond', { requestId: req.requestId, action: 'decline' });
    expect(await reply).toMatch(/declined/);
  });

  it('counts against the launch’s call budget, and closing the launch withdraws what waits', async () => {
    const { launchId } = await openSampler();
    const before = requested().length;
    const waiting = Array.from({ length: APP_CALLS_IN_FLIGHT }, () =>
      t.call('apps.createMessage', { launchId, params: PARAMS }).then(
        () => 'answered',
        (e: unknown) => (e instanceof Error ? e.message : String(e)),
      ),
    );
    await nextRequest(before + APP_CALLS_IN_FLIGHT - 1);
    const over = await appError(() => t.call('apps.createMessage', { launchId, params: PARAMS }));
    expect(over.code).toBe('limit_exceeded');
    expect(over.message).toMatch(new RegExp(`already has ${APP_CALLS_IN_FLIGHT} tool calls running`));
    await t.call('apps.close', { launchId });
    expect(await Promise.all(waiting)).toEqual(Array(APP_CALLS_IN_FLIGHT).fill(expect.stringMatching(/withdrawn|closed|app was closed/i)));
    expect(await t.call('sampling.pending', {})).toEqual([]);
  });

  it('an oversized or closed-launch request is refused before the person is asked', async () => {
    const { launchId } = await openSampler();
    const before = requested().length;
    const big = { messages: [{ role: 'user', content: { type: 'text', text: 'x'.repeat(APP_SAMPLING_MAX_BYTES) } }], maxTokens: 5 };
    const over = await appError(() => t.call('apps.createMessage', { launchId, params: big }));
    expect(over.code).toBe('limit_exceeded');
    expect(over.message).toMatch(/over the 1 MiB an app's request may be/);
    await t.call('apps.close', { launchId });
    expect((await appError(() => t.call('apps.createMessage', { launchId, params: PARAMS }))).code).toBe('not_found');
    expect(requested()).toHaveLength(before);
  });
});
