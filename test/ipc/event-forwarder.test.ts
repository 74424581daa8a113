// Events for the window are held until its page says it is listening, then delivered in order; a reload holds them
// again; the backlog is bounded (drops reported); a payload that cannot be sent is reported, never thrown.
import { describe, expect, it } from 'vitest';
import { EventForwarder, MAX_HELD_EVENTS, type EventTarget } from '../../electron/ipc/event-forwarder.js';

function target(): EventTarget & { sent: [string, unknown][]; destroyed: boolean } {
  const t = {
    sent: [] as [string, unknown][],
    destroyed: false,
    send: (channel: string, payload: unknown) => void t.sent.push([channel, payload]),
    isDestroyed: () => t.destroyed,
  };
  return t;
}

describe('event forwarder', () => {
  it('holds events until the page listens, then sends them in order and the rest straight through', () => {
    const t = target();
    const f = new EventForwarder(() => t);
    f.push('servers.status', { n: 1 });
    f.push('app.notices', { n: 2 });
    expect(t.sent).toEqual([]);
    f.markListening();
    f.push('servers.changed', { n: 3 });
    expect(t.sent.map(([, p]) => p)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it('holds again after a reload until the new page listens', () => {
    const t = target();
    const f = new EventForwarder(() => t);
    f.markListening();
    f.reset();
    f.push('servers.status', { n: 1 });
    expect(t.sent).toEqual([]);
    f.markListening();
    expect(t.sent).toHaveLength(1);
  });

  it('keeps the newest events when the backlog is full and says how many were dropped', () => {
    const t = target();
    const problems: string[] = [];
    const f = new EventForwarder(
      () => t,
      (m) => problems.push(m),
    );
    for (let i = 0; i < MAX_HELD_EVENTS + 3; i++) f.push('servers.log', { i });
    f.markListening();
    expect(t.sent).toHaveLength(MAX_HELD_EVENTS);
    expect(t.sent[0]![1]).toEqual({ i: 3 });
    expect(problems).toEqual(['3 events were dropped while the window was not listening']);
  });

  it('reports a payload that cannot be sent and skips a destroyed window', () => {
    const problems: string[] = [];
    const f = new EventForwarder(
      () => ({
        send: () => {
          throw new Error('An object could not be cloned.');
        },
        isDestroyed: () => false,
      }),
      (m) => problems.push(m),
    );
    f.markListening();
    expect(() => f.push('call.finished', { fn: () => 1 })).not.toThrow();
    // A function is caught by the sendable check before the send; either way the reason names the event.
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^the call\.finished event could not be sent to the window: ./);
    f.push('call.finished', { plain: 1 });
    expect(problems[1]).toBe('the call.finished event could not be sent to the window: An object could not be cloned.');
    const gone = target();
    gone.destroyed = true;
    const g = new EventForwarder(() => gone);
    g.markListening();
    g.push('servers.status', {});
    expect(gone.sent).toEqual([]);
  });

  it('skips a payload nested too deeply to clone, before Electron tries, and keeps sending later events', () => {
    const problems: string[] = [];
    const t = target();
    const f = new EventForwarder(
      () => t,
      (m) => problems.push(m),
    );
    f.markListening();
    let deep: unknown = 1;
    for (let i = 0; i < 5000; i++) deep = [deep];
    expect(() => f.push('app.notices', { notices: deep })).not.toThrow();
    f.push('app.notices', { notices: [] });
    expect(t.sent).toEqual([['app.notices', { notices: [] }]]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^the app.notices event could not be sent to the window: /);
  });
});
