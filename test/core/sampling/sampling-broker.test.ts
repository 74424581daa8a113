// The sampling broker on its own: bounded display data, queue limits, timeout, withdrawal and decline.
import { describe, expect, it } from 'vitest';
import { EventBus } from '../../../electron/core/event-bus.js';
import { Presence } from '../../../electron/core/presence.js';
import { MAX_PENDING_SAMPLING, SamplingBroker } from '../../../electron/core/sampling/sampling-broker.js';
import { MAX_SHOWN_MESSAGES } from '../../../electron/core/sampling/sampling-view.js';

function make(timeoutMs = 10_000) {
  const events = new EventBus();
  const seen: string[] = [];
  events.subscribe((event) => seen.push(event));
  const presence = new Presence();
  presence.set('window', 'visible');
  return {
    broker: new SamplingBroker({ events, presence, serverName: () => 'Srv \u202Ename', timeoutMs: () => timeoutMs }),
    seen,
    events,
    presence,
  };
}

const params = (n = 1) => ({
  messages: Array.from({ length: n }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: { type: 'text', text: `m${i}` } })),
  maxTokens: 10,
  modelPreferences: { hints: [{ name: 'claude' }, { nope: 1 }], intelligencePriority: 0.8 },
  tools: [{ name: 'search', description: 'Searches', inputSchema: { type: 'object' } }],
  toolChoice: { mode: 'auto' },
});

describe('sampling broker', () => {
  it('shows bounded display data and resolves with the typed reply', async () => {
    const { broker } = make();
    const pending = broker.request('s', params(MAX_SHOWN_MESSAGES + 5));
    const [view] = broker.pending();
    expect(view).toMatchObject({ serverName: 'Srv name', maxTokens: 10, omittedMessages: 5, toolChoice: 'auto' });
    expect(view!.messages).toHaveLength(MAX_SHOWN_MESSAGES);
    expect(view!.modelPreferences).toEqual({ hints: ['claude'], intelligencePriority: 0.8 });
    expect(view!.tools).toEqual([{ name: 'search', description: 'Searches' }]);
    expect(() => broker.respond(view!.requestId, 'accept', { text: '  ' })).toThrow(/Write a reply/);
    broker.respond(view!.requestId, 'accept', { text: 'hello', model: 'me', stopReason: 'stopSequence' });
    await expect(pending).resolves.toEqual({
      role: 'assistant',
      content: { type: 'text', text: 'hello' },
      model: 'me',
      stopReason: 'stopSequence',
    });
    expect(() => broker.respond(view!.requestId, 'decline')).toThrow(/no longer waiting/);
  });

  it('declines, times out, follows a withdrawal, and refuses when nobody is there or too many wait', async () => {
    const { broker, events } = make(50);
    const declined = broker.request('s', params());
    broker.respond(broker.pending()[0]!.requestId, 'decline');
    await expect(declined).rejects.toMatchObject({ code: -1 });
    await expect(broker.request('s', params())).rejects.toThrow(/in time/);
    const abort = new AbortController();
    const withdrawn = broker.request('s', params(), abort.signal);
    abort.abort();
    await expect(withdrawn).rejects.toThrow(/withdrawn/);
    const slow = make(10_000).broker;
    const waiting = Array.from({ length: MAX_PENDING_SAMPLING }, () => slow.request('s', params()).catch(() => 'gone'));
    await expect(slow.request('s', params())).rejects.toThrow(/Too many/);
    slow.cancelServer('s', 'closed');
    expect(await Promise.all(waiting)).toEqual(Array(MAX_PENDING_SAMPLING).fill('gone'));
    const lonely = new SamplingBroker({ events: new EventBus(), presence: new Presence(), serverName: () => 's', timeoutMs: () => 1000 });
    await expect(lonely.request('s', params())).rejects.toThrow(/Nobody is there/);
    expect(events.size).toBe(1);
  });
});

describe('sampling requests from an app', () => {
  it('are marked with the app’s tool, and closing the launch withdraws only its own', async () => {
    const { broker } = make();
    const fromServer = broker.request('s', params());
    const fromApp = broker.request('s', params(), undefined, { launchId: 'L1', tool: 'mcp__s__chart\u202E' });
    const otherApp = broker.request('s', params(), undefined, { launchId: 'L2', tool: 'mcp__s__map' });
    const views = broker.pending();
    expect(views.map((v) => v.fromApp)).toEqual([undefined, { tool: 'mcp__s__chart' }, { tool: 'mcp__s__map' }]);
    broker.cancelLaunch('L1', 'The app was closed');
    await expect(fromApp).rejects.toThrow(/The app was closed/);
    expect(broker.pending().map((v) => v.requestId)).toEqual([views[0]!.requestId, views[2]!.requestId]);
    broker.cancelAll('done');
    await expect(fromServer).rejects.toThrow(/done/);
    await expect(otherApp).rejects.toThrow(/done/);
  });
});
