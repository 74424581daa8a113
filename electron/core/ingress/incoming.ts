// The ingress point of every server message: wraps a transport's `onmessage` so each message passes the ingress
// stages (depth bound, notification budget, ...) after the transport's byte limits and before the SDK or anything
// else in the core sees it. Applied to every transport the sessions open, whatever its kind.
import type { JSONRPCMessage, MessageExtraInfo, Transport } from '@modelcontextprotocol/client';
import type { TransportFactory } from '../transports/transport-factory.js';

/**
 * One ingress stage: returns the message to pass on (possibly replaced), or undefined to drop it or hold it back.
 * `later` passes a held message on at a later time, through the stages after this one.
 */
export type IngressStage = (message: JSONRPCMessage, later: (message: JSONRPCMessage) => void) => JSONRPCMessage | undefined;

type Handler = (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

/**
 * Makes every message the transport delivers go through `stages`, in order, before the handler the SDK installs.
 * Works on the transport instance (the SDK assigns `onmessage` after this), so transports keep their own type.
 * Reading `onmessage` gives the current handler behind the stages; code that wraps it (a tap reading the handler
 * and installing its own) keeps working, and a message passes the stages once however many wrappers it crosses.
 */
export function guardIncoming(transport: Transport, stages: readonly IngressStage[]): void {
  let handler: Handler | undefined;
  const passed = new WeakSet<object>();
  const wrappers = new WeakMap<Handler, Handler>();
  /** Runs the stages from `from` on; the message that comes out, or undefined when one dropped or held it. */
  const run = (message: JSONRPCMessage, from: number): JSONRPCMessage | undefined => {
    let current: JSONRPCMessage | undefined = message;
    for (let i = from; i < stages.length && current !== undefined; i++) current = stages[i]!(current, laters[i]!);
    if (current !== undefined) passed.add(current);
    return current;
  };
  // Each stage's way of passing a held message on, made once (not per message).
  const laters = stages.map((_, i) => (held: JSONRPCMessage): void => {
    const out = run(held, i + 1);
    if (out === undefined) return;
    passed.add(out);
    handler?.(out);
  });
  const guard = (inner: Handler): Handler => {
    let wrapped = wrappers.get(inner);
    if (wrapped === undefined) {
      wrapped = (message, extra) => {
        const current = passed.has(message) ? message : run(message, 0);
        if (current !== undefined) inner(current, extra);
      };
      wrappers.set(inner, wrapped);
    }
    return wrapped;
  };
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => (handler === undefined ? undefined : guard(handler)),
    set: (next: Handler | undefined) => {
      handler = next;
    },
  });
}

/**
 * A factory whose transports apply the context's ingress stages, on the transport itself, before any decorator (the
 * protocol view's tap) wraps it: decorators then see messages after the stages, and the stages see every message.
 */
export function withIngress(base: TransportFactory): TransportFactory {
  return (ctx) => {
    const opened = base(ctx);
    if (ctx.ingress !== undefined && ctx.ingress.length > 0) guardIncoming(opened.transport, ctx.ingress);
    return opened;
  };
}
