// What to do when a server ends a subscription because its event type was removed or changed in place (the sketch's
// -32011 `kind: "event"` / -32014 `reason: "schema_changed"`): list the types again and resubscribe against the
// current descriptor, or end with a reason when the type (or this delivery mode) is gone. The position is kept on
// the first try; a server that refuses it at once (its cursors carry a schema epoch) gets a resubscription from now,
// said as a gap. One that keeps doing it is given up on rather than resubscribed forever.
import type { EventDeliveryMode, EventTypeView } from '../../../shared/domains/events.js';
import type { EventFailure } from './event-errors.js';
import { label } from './payload.js';

/** Schema-change endings of one subscription within this window are counted together (ms). */
export const SCHEMA_CHANGE_WINDOW_MS = 10 * 60_000;
/** More than this many in the window and the subscription ends instead. */
export const MAX_SCHEMA_CHANGES = 3;

/** The decision after one schema-change ending. */
export type SchemaChangePlan =
  | { action: 'end'; failure: EventFailure }
  | {
      action: 'resubscribe';
      /** Start from now: the kept position was refused right after the last resubscription. */
      fromNow: boolean;
      /** The one activity entry for this change (absent when this retry continues the previous one). */
      note?: string;
    };

/** Per-subscription memory of recent schema-change endings. */
interface Track {
  times: number[];
  /** The position moved since the last resubscription (it was accepted). */
  advanced: boolean;
}

/** Decides, per subscription, how to follow a schema change. */
export class SchemaChangeTracker {
  readonly #tracks = new Map<string, Track>();

  /** The subscription's position moved: the last resubscription worked. */
  advanced(subscriptionId: string): void {
    const t = this.#tracks.get(subscriptionId);
    if (t) t.advanced = true;
  }

  /** Forgets a subscription (removed, resumed by the person). */
  forget(subscriptionId: string): void {
    this.#tracks.delete(subscriptionId);
  }

  /**
   * Plans the next step for a subscription the server ended with `failure` (a schema change), given the type as
   * listed again (undefined: gone, or the listing failed with `listError`).
   */
  plan(
    subscriptionId: string,
    failure: EventFailure,
    mode: EventDeliveryMode,
    type: EventTypeView | undefined,
    listError: string | undefined,
    now: number,
  ): SchemaChangePlan {
    const previous = this.#tracks.get(subscriptionId);
    const times = [...(previous?.times ?? []).filter((t) => now - t < SCHEMA_CHANGE_WINDOW_MS), now];
    const continuing = previous !== undefined && !previous.advanced && times.length > 1;
    this.#tracks.set(subscriptionId, { times, advanced: false });
    const what = failure.schemaChange === 'removed' ? 'removed this event type' : 'changed this event type’s schema';
    if (listError === undefined && type === undefined) return end(failure, `The server ${what} and no longer offers it`);
    if (type !== undefined && !type.delivery.includes(mode))
      return end(failure, `The server ${what} and no longer offers ${mode} delivery for it`);
    if (times.length > MAX_SCHEMA_CHANGES)
      return end(failure, `The server ended this subscription for a schema change ${times.length} times in 10 minutes`);
    const listed = listError === undefined ? 'listed its event types again' : `could not list its event types again (${listError})`;
    return {
      action: 'resubscribe',
      fromNow: continuing,
      ...(continuing ? {} : { note: `The server ${what}; Switchboard ${listed} and resubscribed` }),
    };
  }
}

function end(failure: EventFailure, reason: string): SchemaChangePlan {
  return { action: 'end', failure: { ...failure, terminal: true, reason: label(reason, 300) } };
}
