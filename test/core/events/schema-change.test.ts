// The plan after a schema-change ending: resubscribe with one note, from now when the kept position was refused at
// once, end when the type or its mode is gone, and give up on a server that keeps doing it.
import { describe, expect, it } from 'vitest';
import type { EventTypeView } from '../../../shared/domains/events.js';
import { classifyWireError } from '../../../electron/core/events/event-errors.js';
import { MAX_SCHEMA_CHANGES, SCHEMA_CHANGE_WINDOW_MS, SchemaChangeTracker } from '../../../electron/core/events/schema-change.js';

const changed = classifyWireError(-32014, 'Unsupported', { reason: 'schema_changed' });
const removed = classifyWireError(-32011, 'NotFound', { kind: 'event' });
const type = (delivery: EventTypeView['delivery']): EventTypeView =>
  ({ name: 'x', description: '', delivery, inputSchema: { type: 'object' } }) as EventTypeView;

describe('SchemaChangeTracker', () => {
  it('resubscribes with one note, then from now (no second note) when nothing moved in between', () => {
    const t = new SchemaChangeTracker();
    expect(t.plan('s', changed, 'push', type(['push']), undefined, 1000)).toEqual({
      action: 'resubscribe',
      fromNow: false,
      note: 'The server changed this event type’s schema; Switchboard listed its event types again and resubscribed',
    });
    expect(t.plan('s', changed, 'push', type(['push']), undefined, 2000)).toEqual({ action: 'resubscribe', fromNow: true });
  });

  it('a later change after the position moved is a new change with its own note', () => {
    const t = new SchemaChangeTracker();
    t.plan('s', changed, 'poll', type(['poll']), undefined, 1000);
    t.advanced('s');
    expect(t.plan('s', changed, 'poll', type(['poll']), undefined, 5000)).toMatchObject({
      action: 'resubscribe',
      fromNow: false,
      note: expect.any(String),
    });
  });

  it('ends when the type or the mode is gone, or after too many changes in the window', () => {
    const t = new SchemaChangeTracker();
    expect(t.plan('a', removed, 'poll', undefined, undefined, 0)).toMatchObject({
      action: 'end',
      failure: { terminal: true, reason: 'The server removed this event type and no longer offers it' },
    });
    expect(t.plan('b', changed, 'push', type(['poll']), undefined, 0)).toMatchObject({
      action: 'end',
      failure: { reason: 'The server changed this event type’s schema and no longer offers push delivery for it' },
    });
    for (let i = 0; i < MAX_SCHEMA_CHANGES; i++) {
      expect(t.plan('c', changed, 'poll', type(['poll']), undefined, i * 1000)).toMatchObject({ action: 'resubscribe' });
      t.advanced('c');
    }
    expect(t.plan('c', changed, 'poll', type(['poll']), undefined, 9000)).toMatchObject({
      action: 'end',
      failure: { reason: `The server ended this subscription for a schema change ${MAX_SCHEMA_CHANGES + 1} times in 10 minutes` },
    });
    // Outside the window the count starts again.
    expect(t.plan('c', changed, 'poll', type(['poll']), undefined, 9000 + SCHEMA_CHANGE_WINDOW_MS)).toMatchObject({
      action: 'resubscribe',
    });
  });

  it('a listing that failed still resubscribes (the server answers the next request), and says so', () => {
    const t = new SchemaChangeTracker();
    expect(t.plan('s', changed, 'poll', undefined, 'timeout', 0)).toMatchObject({
      action: 'resubscribe',
      note: 'The server changed this event type’s schema; Switchboard could not list its event types again (timeout) and resubscribed',
    });
  });
});
