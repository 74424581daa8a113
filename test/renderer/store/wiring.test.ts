// The store hears the core through one wiring: every contract event once, however often it is wired, and a reset
// unsubscribes it and puts the store back as it started.
import { afterEach, describe, expect, it } from 'vitest';
import type { AppNotice } from '../../../shared/contract';
import { EVENT_KEYS } from '../../../shared/contract-schemas';
import { resetStore, useStore } from '../../../renderer/src/store';
import { WIRED_EVENTS } from '../../../renderer/src/store/wiring';
import { FakeCoreEvents } from './fake-core-events';

const notice: AppNotice = { id: 'n1', level: 'info', message: 'Hello' };

afterEach(() => resetStore());

describe('store wiring', () => {
  it('subscribes to every contract event', () => {
    expect([...WIRED_EVENTS].sort()).toEqual([...EVENT_KEYS].sort());
  });

  it('subscribes once: wiring again while wired attaches nothing more', () => {
    const events = new FakeCoreEvents();
    useStore.getState().wireCore(events);
    useStore.getState().wireCore(events);
    for (const event of EVENT_KEYS) expect(events.count(event)).toBe(1);
    expect(events.total()).toBe(EVENT_KEYS.length);

    events.emit('app.notices', { notices: [notice] });
    expect(useStore.getState().notices).toEqual([notice]);
  });

  it('reset unsubscribes and restores the initial state', () => {
    const events = new FakeCoreEvents();
    const initial = useStore.getState();
    useStore.getState().wireCore(events);
    events.emit('app.notices', { notices: [notice] });
    events.emit('resources.listChanged', { id: 'a' });
    expect(useStore.getState().resourceListVersion).toEqual({ a: 1 });

    resetStore();
    expect(events.total()).toBe(0);
    expect(useStore.getState().coreWiring).toBeNull();
    expect(useStore.getState().notices).toEqual([]);
    expect(useStore.getState().resourceListVersion).toEqual({});
    expect(useStore.getState()).toEqual({ ...initial });

    // Events after the reset reach nothing, a lost connection included.
    events.emit('app.notices', { notices: [notice] });
    events.disconnect();
    expect(useStore.getState().notices).toEqual([]);
    expect(useStore.getState().bridgeState).toBe('connecting');

    // The store can be wired again.
    useStore.getState().wireCore(events);
    expect(events.total()).toBe(EVENT_KEYS.length);
  });

  it('keeps no feed entries before the feed is first shown (its first page has them)', () => {
    const events = new FakeCoreEvents();
    useStore.getState().wireCore(events);
    const entry = { seq: 1, kind: 'activity', serverId: 'a', time: 1, receivedAt: 1, activity: 'connected' } as const;
    events.emit('events.occurred', { entries: [entry], more: 0 });
    expect(useStore.getState().feed.entries).toEqual([]);
  });

  it('a lost connection reaches the store while wired', () => {
    const events = new FakeCoreEvents();
    useStore.getState().wireCore(events);
    events.disconnect();
    expect(useStore.getState().bridgeState).toBe('lost');
  });
});
