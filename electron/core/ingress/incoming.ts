// The ingress point of every server message: wraps a transport's `onmessage` so each message passes the ingress
// stages (depth bound, notification budget, ...) after the transport's byte limits and before the SDK or anything
// else in the core sees it. Applied to every transport the sessions open, whatever its kind.
import type { JSONRPCMessage, MessageExtraInfo, Transport } from '@modelcontextprotocol/client';

/** One ingress stage: returns the message to pass on (possibly replaced), or undefined to drop it. */
export type IngressStage = (message: JSONRPCMessage) => JSONRPCMessage | undefined;

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
  const guard = (inner: Handler): Handler => {
    let wrapped = wrappers.get(inner);
    if (wrapped === undefined) {
      wrapped = (message, extra) => {
        let current: JSONRPCMessage | undefined = message;
        if (!passed.has(message)) {
          for (const stage of stages) {
            current = stage(current);
            if (current === undefined) return;
          }
          passed.add(current);
        }
        inner(current, extra);
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
