// A transport decorator that records every JSON-RPC message a session sends and receives, for the protocol view.
// It wraps the SDK-compatible transport in a Proxy: `send` and `onmessage` are observed, everything else (start,
// close, sessionId, setProtocolVersion, hasPerRequestStream, instanceof) reaches the real transport unchanged.
// Code that re-wraps `send` or `onmessage` later (lifecycle phase tracking, the raw request path) wraps ours,
// so each message is recorded exactly once. `start` first waits for the server's secret values to be known,
// so nothing is recorded before redaction can apply.
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type { OpenedTransport, TransportFactory } from '../transports/transport-factory.js';

/** Receives each message a tapped transport sends ('out') or receives ('in'). */
export interface TrafficSink {
  /** Called before start: resolves the values to redact for this server. */
  prepare(serverId: string): Promise<void>;
  /** One message. */
  record(serverId: string, direction: 'out' | 'in', message: JSONRPCMessage): void;
}

type OnMessage = NonNullable<Transport['onmessage']>;
type Send = Transport['send'];

/** Wraps one opened transport so its traffic reaches the sink. */
export function tapTransport(opened: OpenedTransport, serverId: string, sink: TrafficSink): OpenedTransport {
  const inner = opened.transport;
  let outerOnMessage: OnMessage | undefined;
  let outerSend: Send | undefined;
  const safeRecord = (direction: 'out' | 'in', message: JSONRPCMessage): void => {
    try {
      sink.record(serverId, direction, message);
    } catch {
      // The protocol view must never break a session.
    }
  };
  const tappedSend: Send = (message, options) => {
    safeRecord('out', message);
    return inner.send(message, options);
  };
  const tappedStart = async (): Promise<void> => {
    await sink.prepare(serverId).catch(() => undefined);
    return inner.start();
  };
  inner.onmessage = ((message: JSONRPCMessage, extra?: unknown) => {
    safeRecord('in', message);
    (outerOnMessage as ((m: JSONRPCMessage, e?: unknown) => void) | undefined)?.(message, extra);
  }) as OnMessage;

  const transport = new Proxy(inner, {
    get(target, prop) {
      if (prop === 'send') return outerSend ?? tappedSend;
      if (prop === 'onmessage') return outerOnMessage;
      if (prop === 'start') return tappedStart;
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
