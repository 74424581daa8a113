// The events tap of one live Client: it sits in the transport's live `events` slots, hands every `notifications/events/*` message to the
// push stream it belongs to as the transport reads it (in order, before the SDK's per-notification dispatch and its
// envelope lifting), and learns each `events/stream` request's JSON-RPC id as the request is sent. Notifications are
// routed by `_meta["io.modelcontextprotocol/subscriptionId"]` (or a `requestId` / `id` param of earlier drafts);
// one that arrives before its stream is bound is held briefly and delivered once the stream binds.
import type { Client, JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import { isObject } from '../json.js';
import { LiveTaps } from '../transports/pipeline.js';
import { EVENT_NOTIFICATION_PREFIX, EventMethods, EventNotifications, SUBSCRIPTION_ID_META } from './wire.js';

/** Local `_meta` marker naming which stream a request opens; removed before the request reaches the wire. */
export const STREAM_KEY_META = 'io.switchboard/stream';
/** How long a notification for a not-yet-bound stream is held. */
export const HOLD_MS = 2000;
/** How many such notifications are held per client at most. */
export const HOLD_LIMIT = 256;

/** Receives one push stream's notifications. */
export interface StreamSink {
  /** One `notifications/events/*` message for this stream (params as sent, `_meta` included). */
  notification(method: string, params: Record<string, unknown>): void;
  /** The transport says the request's response stream ended without a result (HTTP). */
  ended(): void;
}

/** A stream's registration with the tap. */
export interface StreamBinding {
  /** The marker to put in the request's `_meta[STREAM_KEY_META]`. */
  readonly key: string;
  /** The request's JSON-RPC id, once sent. */
  readonly requestId: string | undefined;
  /** Forgets the stream (its later notifications are held, then dropped). */
  dispose(): void;
}

/** What the tap reports besides stream traffic. */
export interface TapHooks {
  /** `notifications/events/list_changed` arrived. */
  listChanged(): void;
  /** Diagnostics (dropped notifications). */
  log(level: 'info' | 'warning', text: string): void;
}

interface Pending {
  key: string;
  sink: StreamSink;
  requestId: string | undefined;
  disposed: boolean;
}

interface Held {
  id: string;
  method: string;
  params: Record<string, unknown>;
  at: number;
}

const taps = new WeakMap<Transport, EventTap>();
let keyCounter = 0;

/** The routing key of a notification: the subscription id in `_meta`, else a `requestId` or `id` param. */
export function routingKey(params: Record<string, unknown>): string | undefined {
  const meta = params['_meta'];
  const fromMeta = isObject(meta) ? meta[SUBSCRIPTION_ID_META] : undefined;
  for (const v of [fromMeta, params['requestId'], params['id']]) if (typeof v === 'string' || typeof v === 'number') return String(v);
  return undefined;
}

/** Routes the events notifications of one transport to the push streams opened on it. */
export class EventTap {
  readonly #hooks: TapHooks;
  readonly #byKey = new Map<string, Pending>();
  readonly #byId = new Map<string, Pending>();
  #held: Held[] = [];
  #holdTimer: ReturnType<typeof setTimeout> | undefined;
  #dropped = 0;

  private constructor(hooks: TapHooks) {
    this.#hooks = hooks;
  }

  /**
   * The tap of a connected client's transport, installed on first use in the transport's `events` slots (see
   * transports/pipeline.ts); undefined when the client is not connected.
   */
  static of(client: Client, hooks: TapHooks): EventTap | undefined {
    const transport = client.transport;
    if (!transport) return undefined;
    let tap = taps.get(transport);
    if (!tap) {
      const created = new EventTap(hooks);
      const live = LiveTaps.of(transport);
      if (!live.incoming('events', (message) => created.#take(message))) return undefined;
      live.outgoing('events', (message, options) => created.#onSend(message, options));
      tap = created;
      taps.set(transport, tap);
    }
    return tap;
  }

  /** Registers a stream about to be opened; put `binding.key` in the request's `_meta[STREAM_KEY_META]`. */
  expect(sink: StreamSink): StreamBinding {
    const pending: Pending = { key: `s${++keyCounter}`, sink, requestId: undefined, disposed: false };
    this.#byKey.set(pending.key, pending);
    const forget = (): void => {
      pending.disposed = true;
      this.#byKey.delete(pending.key);
      if (pending.requestId !== undefined && this.#byId.get(pending.requestId) === pending) this.#byId.delete(pending.requestId);
    };
    return {
      key: pending.key,
      get requestId() {
        return pending.requestId;
      },
      dispose: forget,
    };
  }

  /** Outgoing: an `events/stream` request carrying our marker binds its id; the marker never reaches the wire. */
  #onSend(
    message: JSONRPCMessage,
    options: TransportSendOptions | undefined,
  ): { message: JSONRPCMessage; options?: TransportSendOptions } | undefined {
    if (!('method' in message) || !('id' in message) || message.method !== EventMethods.stream) return undefined;
    const params = message.params;
    const meta = isObject(params) ? params['_meta'] : undefined;
    const key = isObject(meta) ? meta[STREAM_KEY_META] : undefined;
    if (typeof key !== 'string' || !isObject(meta) || !isObject(params)) return undefined;
    const { [STREAM_KEY_META]: _marker, ...restMeta } = meta;
    const cleanParams = { ...params };
    if (Object.keys(restMeta).length > 0) cleanParams['_meta'] = restMeta;
    else delete cleanParams['_meta'];
    const cleaned = { ...message, params: cleanParams } as JSONRPCMessage;
    const pending = this.#byKey.get(key);
    if (!pending || pending.disposed) return { message: cleaned, ...(options ? { options } : {}) };
    const id = String(message.id);
    pending.requestId = id;
    this.#byId.set(id, pending);
    this.#release(id);
    const previousEnd = options?.onRequestStreamEnd;
    return {
      message: cleaned,
      options: {
        ...options,
        onRequestStreamEnd: () => {
          previousEnd?.();
          if (!pending.disposed) pending.sink.ended();
        },
      },
    };
  }

  /** Incoming: consumes events notifications (true), passes everything else on (false). */
  #take(message: JSONRPCMessage): boolean {
    if (!('method' in message) || 'id' in message || !message.method.startsWith(EVENT_NOTIFICATION_PREFIX)) return false;
    const params = isObject(message.params) ? message.params : {};
    if (message.method === EventNotifications.listChanged) {
      this.#hooks.listChanged();
      return true;
    }
    const id = routingKey(params);
    if (id === undefined) {
      this.#drop();
      return true;
    }
    const target = this.#byId.get(id);
    if (target && !target.disposed) {
      target.sink.notification(message.method, params);
      return true;
    }
    this.#hold({ id, method: message.method, params, at: Date.now() });
    return true;
  }

  #hold(entry: Held): void {
    if (this.#held.length >= HOLD_LIMIT) {
      this.#held.shift();
      this.#drop();
    }
    this.#held.push(entry);
    if (!this.#holdTimer) {
      this.#holdTimer = setTimeout(() => this.#expire(), HOLD_MS);
      this.#holdTimer.unref?.();
    }
  }

  /** Delivers, in arrival order, what was held for a stream that just bound. */
  #release(id: string): void {
    if (this.#held.length === 0) return;
    const mine = this.#held.filter((h) => h.id === id);
    if (mine.length === 0) return;
    this.#held = this.#held.filter((h) => h.id !== id);
    // Delivered after the send returns, so the stream's request is registered before its first notification.
    queueMicrotask(() => {
      const target = this.#byId.get(id);
      for (const h of mine) if (target && !target.disposed) target.sink.notification(h.method, h.params);
    });
  }

  #expire(): void {
    this.#holdTimer = undefined;
    const cutoff = Date.now() - HOLD_MS;
    const before = this.#held.length;
    this.#held = this.#held.filter((h) => h.at > cutoff);
    for (let i = this.#held.length; i < before; i++) this.#drop();
    if (this.#held.length > 0) {
      this.#holdTimer = setTimeout(() => this.#expire(), HOLD_MS);
      this.#holdTimer.unref?.();
    }
    if (this.#dropped > 0) {
      this.#hooks.log('warning', `Dropped ${this.#dropped} event notification(s) that belonged to no open stream`);
      this.#dropped = 0;
    }
  }

  #drop(): void {
    this.#dropped++;
    if (!this.#holdTimer) {
      this.#holdTimer = setTimeout(() => this.#expire(), HOLD_MS);
      this.#holdTimer.unref?.();
    }
  }
}
