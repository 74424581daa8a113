// A transport decorator that records every JSON-RPC message a session sends and receives, for the protocol view.
// It wraps the SDK-compatible transport in a Proxy: `send` and `onmessage` are observed, everything else (start,
// close, sessionId, setProtocolVersion, hasPerRequestStream, instanceof) reaches the real transport unchanged.
// The live taps (transports/pipeline.ts: the raw request path, the events tap, phase tracking) wrap `send` and
// `onmessage` later, on top of ours, so each message is recorded exactly once. Messages that pass before the server's secret values are known are
// held (with their time) and recorded once they are, so redaction always applies; `start` is never delayed (a
// delayed start could spawn a process after the session had already been released).
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type { OpenedTransport, TransportFactory } from '../transports/transport-factory.js';

/** Receives each message a tapped transport sends ('out') or receives ('in'). */
export interface TrafficSink {
  /** Called when a transport opens: resolves the values to redact for this server. */
  prepare(serverId: string): Promise<void>;
  /** One message, sent or received at `time` (ms since epoch). */
  record(serverId: string, direction: 'out' | 'in', message: JSONRPCMessage, time: number): void;
}

type OnMessage = NonNullable<Transport['onmessage']>;
/** Messages held while the secret values load (the first messages of a session are few). */
const MAX_HELD = 1000;
type Send = Transport['send'];

/** Wraps one opened transport so its traffic reaches the sink. */
export function tapTransport(opened: OpenedTransport, serverId: string, sink: TrafficSink): OpenedTransport {
  const inner = opened.transport;
  let outerOnMessage: OnMessage | undefined;
  let outerSend: Send | undefined;
  const record = (direction: 'out' | 'in', message: JSONRPCMessage, time: number): void => {
    try {
      sink.record(serverId, direction, message, time);
    } catch {
      // The protocol view must never break a session.
    }
  };
  let held: [direction: 'out' | 'in', message: JSONRPCMessage, time: number][] | undefined = [];
  void sink
    .prepare(serverId)
    .catch(() => undefined)
    .finally(() => {
      const queue = held ?? [];
      held = undefined;
      for (const [direction, message, time] of queue) record(direction, message, time);
    });
  const safeRecord = (direction: 'out' | 'in', message: JSONRPCMessage): void => {
    if (!held) record(direction, message, Date.now());
    else if (held.length < MAX_HELD) held.push([direction, message, Date.now()]);
  };
  const tappedSend: Send = (message, options) => {
    // Recorded once the transport has taken it (and noted its size on the wire), whether or not that failed.
    try {
      return inner.send(message, options);
    } finally {
      safeRecord('out', message);
    }
  };
  inner.onmessage = ((message: JSONRPCMessage, extra?: unknown) => {
    safeRecord('in', message);
    (outerOnMessage as ((m: JSONRPCMessage, e?: unknown) => void) | undefined)?.(message, extra);
  }) as OnMessage;

  const transport = new Proxy(inner, {
    get(target, prop) {
      if (prop === 'send') return outerSend ?? tappedSend;
      if (prop === 'onmessage') return outerOnMessage;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
    set(target, prop, value: unknown) {
      if (prop === 'send') {
        outerSend = value as Send;
        return true;
      }
      if (prop === 'onmessage') {
        outerOnMessage = value as OnMessage | undefined;
        return true;
      }
      return Reflect.set(target, prop, value, target);
    },
  });
  return { ...opened, transport };
}

/** A factory whose transports are all tapped (the sink decides what to keep). */
export function tapFactory(factory: TransportFactory, sink: TrafficSink | undefined): TransportFactory {
  if (!sink) return factory;
  return (ctx) => tapTransport(factory(ctx), ctx.config.id, sink);
}
