// Every place the core leans on the MCP SDK (`@modelcontextprotocol/client` 2.x) beyond its documented surface, in
// one module. Each seam is one small function naming the SDK internal it relies on and why we need it; nothing else
// in the core calls a protected Client member or wraps the handlers a connected Client installed on its transport
// (the factory decorators of transports/pipeline.ts only catch the Client's assignment, as any transport sees it).
// `test/core/sdk/seams.test.ts` checks every seam against the installed SDK, so an upgrade that moves one fails
// there, by name, instead of silently degrading a feature. At run time a broken seam degrades (the feature falls
// back or does nothing); it never throws into a session.
import {
  Client,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import { isObject, type JsonObject } from '../json.js';

/** The names of the seams, as the seam tests and diagnostics report them. */
export const Seams = {
  outboundEnvelope: 'Client._outboundMetaEnvelope',
  responseDispatch: 'Client._onresponse',
  incoming: 'Client.connect installs transport.onmessage',
  outgoing: 'Client sends through transport.send',
  closed: 'Client.connect installs transport.onclose',
} as const;

/** One seam's name. */
export type SeamName = (typeof Seams)[keyof typeof Seams];

/** The Client's protected methods the seams call (declared `protected` in the SDK's typings). */
const ENVELOPE_METHOD = '_outboundMetaEnvelope';
const RESPONSE_METHOD = '_onresponse';

type ClientInternals = Record<typeof ENVELOPE_METHOD | typeof RESPONSE_METHOD, unknown>;

function internals(client: Client): ClientInternals {
  return client as unknown as ClientInternals;
}

/** The seams whose SDK method is gone from the installed SDK's Client (empty while all are in place). */
export function missingSeams(): SeamName[] {
  const proto = Client.prototype as unknown as Partial<ClientInternals>;
  const missing: SeamName[] = [];
  if (typeof proto[ENVELOPE_METHOD] !== 'function') missing.push(Seams.outboundEnvelope);
  if (typeof proto[RESPONSE_METHOD] !== 'function') missing.push(Seams.responseDispatch);
  return missing;
}

/**
 * The `_meta` envelope the SDK attaches to its own requests on this connection (protocol version, client info and
 * capabilities on 2026-07-28; undefined on a legacy connection). Relies on `Client._outboundMetaEnvelope()`
 * (protected). Needed by the raw request path, which must send what the SDK would send but cannot go through the
 * SDK's codec (it rejects task results). Returns undefined when the method is gone, so callers fall back.
 */
export function outboundMetaEnvelope(client: Client): JsonObject | undefined {
  const method = internals(client)[ENVELOPE_METHOD];
  if (typeof method !== 'function') return undefined;
  const envelope: unknown = (method as () => unknown).call(client);
  return isObject(envelope) ? envelope : undefined;
}

/**
 * Defers the Client's handling of each response by one microtask; returns false (and changes nothing) when the SDK
 * no longer has the method. Relies on `Client._onresponse(response)` (protected) being the one place responses are
 * dispatched, looked up on the instance per message. Needed because the SDK dispatches notifications one microtask
 * after reading them but responses at once, dropping the request's progress handler: a server that reports
 * progress right before answering lost its last update most of the time.
 */
export function deferResponseDispatch(client: Client): boolean {
  const target = internals(client);
  const original = target[RESPONSE_METHOD];
  if (typeof original !== 'function') return false;
  target[RESPONSE_METHOD] = (response: unknown) => {
    void Promise.resolve().then(() => (original as (r: unknown) => void).call(client, response));
  };
  return true;
}

/** A filter ahead of the Client's own message handler: true when it consumed the message. */
export type IncomingFilter = (message: JSONRPCMessage, extra?: MessageExtraInfo) => boolean;

type MessageHandler = (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

/**
 * Puts `take` in front of the handler a connected Client installed on its transport; messages it consumes never
 * reach the Client. Returns false when the transport has no handler (not connected). Relies on `Client.connect()`
 * assigning `transport.onmessage` once and never again, and on transports calling `this.onmessage` per message.
 * Needed to take our raw requests' responses and the events extension's notifications off the wire before the
 * SDK's codec sees (and rejects or reorders) them.
 */
export function interceptIncoming(transport: Transport, take: IncomingFilter): boolean {
  const inner = transport.onmessage as MessageHandler | undefined;
  if (typeof inner !== 'function') return false;
  transport.onmessage = ((message: JSONRPCMessage, extra?: MessageExtraInfo) => {
    if (take(message, extra)) return;
    inner.call(transport, message, extra);
  }) as Transport['onmessage'];
  return true;
}

/** What an outgoing rewrite returns: the message (and options) to send instead, or undefined to send it as is. */
export type OutgoingRewrite = (
  message: JSONRPCMessage,
  options: TransportSendOptions | undefined,
) => { message: JSONRPCMessage; options?: TransportSendOptions } | undefined;

/**
 * Passes every message the Client (and its version negotiation) sends through `rewrite`, before or after connect.
 * Relies on the SDK looking `transport.send` up on the transport for each message rather than keeping a bound
 * reference. Needed to see which lifecycle message went out last (connect diagnostics) and to take the local
 * stream marker off an `events/stream` request while learning its JSON-RPC id.
 */
export function interceptOutgoing(transport: Transport, rewrite: OutgoingRewrite): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const rewritten = rewrite(message, options);
    return rewritten ? send(rewritten.message, rewritten.options) : send(message, options);
  };
}

/**
 * Runs `before` when the connected transport closes, ahead of the Client's own teardown. Returns false when the
 * transport has no close handler (not connected). Relies on `Client.connect()` assigning `transport.onclose` once.
 * Needed to fail our raw requests with ConnectionClosed, as the SDK fails its own, when the connection drops.
 */
export function interceptClosed(transport: Transport, before: () => void): boolean {
  const inner = transport.onclose;
  if (typeof inner !== 'function') return false;
  transport.onclose = () => {
    before();
    inner.call(transport);
  };
  return true;
}
