// Resumability for one 2025-11-25 gateway session: the messages sent on its SSE streams are kept (bounded by
// count and bytes, oldest dropped first) so a client that lost a stream can reconnect with Last-Event-ID and get
// what it missed.
import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

/** Events kept per session. */
export const EVENT_STORE_MAX_EVENTS = 1000;
/** Bytes of events kept per session. */
export const EVENT_STORE_MAX_BYTES = 8 * 1024 * 1024;

interface Stored {
  streamId: string;
  message: JSONRPCMessage;
  bytes: number;
}

/** A bounded in-memory event store for one session. */
export class BoundedEventStore implements EventStore {
  readonly #events = new Map<string, Stored>();
  #bytes = 0;
  #seq = 0;

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `${streamId}_${++this.#seq}`;
    const bytes = Buffer.byteLength(JSON.stringify(message), 'utf8');
    this.#events.set(id, { streamId, message, bytes });
    this.#bytes += bytes;
    for (const [old, e] of this.#events) {
      if (this.#events.size <= EVENT_STORE_MAX_EVENTS && this.#bytes <= EVENT_STORE_MAX_BYTES) break;
      this.#events.delete(old);
      this.#bytes -= e.bytes;
    }
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.#events.get(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const last = this.#events.get(lastEventId);
    if (!last) throw new Error('Unknown or expired event id');
    let after = false;
    for (const [id, e] of this.#events) {
      if (id === lastEventId) {
        after = true;
        continue;
      }
      if (after && e.streamId === last.streamId) await send(id, e.message);
    }
    return last.streamId;
  }
}
