// The one place the transport decorators and taps of a session are put together, in a fixed order.
//
// Two layers. The factory layer wraps the function that opens a transport (each lifecycle attempt opens a fresh
// one); `transportPipeline` composes its decorators, innermost (nearest the wire) first:
//   1. in-process  built-in servers are served from this process instead of the base factory; innermost, so every
//                  layer outside treats an in-process server like any other (tracked, logged, bounded).
//   2. tracker     refuses new transports once shutdown begins and remembers the open ones so none outlives the
//                  app; outside the in-process layer so those are counted too.
//   3. auth        puts the server's credentials into the context of HTTP/SSE transports; only adds to the
//                  context, so it works wherever it sits above the opening layers.
//   4. processes   hands the host's process record to stdio transports (context only, like auth).
//   5. ingress     the context's ingress stages (nesting bound, notification budget) on the transport instance
//                  itself, below every tap: each received message passes them once, before anything records or
//                  reads it.
//   6. traffic     the protocol view's recorder: it records messages as they cross between the session and the
//                  wire, after ingress on the way in and after every live tap on the way out.
//   7. telemetry   spans for the handshake and each request, outermost (when tracing is on): it sees requests
//                  as the session sends them, in the async context of the call that sent them.
//
// The live layer sits on a connected transport, between the traffic recorder and the SDK Client; `LiveTaps`
// holds its taps in named slots that run in the order of INCOMING_TAPS / OUTGOING_TAPS whatever order they were
// installed in (the raw request path installs its tap on first use, the events tap once a session connects).
// Received: ingress → traffic → raw-request → events → Client. The raw request path goes first because it takes
// only responses and progress addressed to ids it minted; the events tap then takes `notifications/events/*`.
// Neither consumes the other's messages, so their order changes nothing but the cost of the common case.
// Sent: Client → events → phases → traffic → wire. The events tap strips its local stream marker first, so the
// phase tracker, the traffic log and the server all see the request as it goes on the wire.
import type { Transport, TransportSendOptions, JSONRPCMessage } from '@modelcontextprotocol/client';
import type { AuthManager } from '../auth/auth-manager.js';
import { withTransportAuth } from '../auth/transport-auth.js';
import { withIngress } from '../ingress/incoming.js';
import type { TransportTracker } from '../lifecycle/transport-tracker.js';
import { tapFactory, type TrafficSink } from '../protocol/traffic-tap.js';
import { interceptClosed, interceptIncoming, interceptOutgoing, type IncomingFilter, type OutgoingRewrite } from '../sdk/seams.js';
import type { ProcessSink } from '../sessions/process-record.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { traceFactory } from '../telemetry/transport-spans.js';
import type { TransportFactory } from './transport-factory.js';

/** The decorators of the factory layer; each is optional and, when given, takes its fixed place. */
export interface TransportPipelineParts {
  /** Serves built-in servers in-process instead of through the base factory. */
  inProcess?: (inner: TransportFactory) => TransportFactory;
  /** Tracks open transports for shutdown and refuses new ones once it begins. */
  tracker?: TransportTracker;
  /** Authorization for HTTP/SSE transports. */
  auth?: Pick<AuthManager, 'transportAuth'>;
  /** The host's record of stdio process groups. */
  processes?: ProcessSink;
  /** The protocol view's sink. */
  traffic?: TrafficSink;
  /** Tracing (spans per handshake and request). */
  telemetry?: Telemetry;
}

/** The factory layer's decorators, innermost first (the order the header explains). */
export const FACTORY_LAYERS = ['in-process', 'tracker', 'auth', 'processes', 'ingress', 'traffic', 'telemetry'] as const;

/** Wraps `base` in the given decorators, in the order of FACTORY_LAYERS. Ingress always applies (a no-op without stages). */
export function transportPipeline(base: TransportFactory, parts: TransportPipelineParts): TransportFactory {
  let factory = base;
  for (const layer of FACTORY_LAYERS) {
    switch (layer) {
      case 'in-process':
        if (parts.inProcess) factory = parts.inProcess(factory);
        break;
      case 'tracker':
        if (parts.tracker) factory = parts.tracker.track(factory);
        break;
      case 'auth':
        if (parts.auth) factory = withTransportAuth(factory, parts.auth);
        break;
      case 'processes':
        if (parts.processes) factory = withProcesses(factory, parts.processes);
        break;
      case 'ingress':
        factory = withIngress(factory);
        break;
      case 'traffic':
        factory = tapFactory(factory, parts.traffic);
        break;
      case 'telemetry':
        if (parts.telemetry) factory = traceFactory(factory, parts.telemetry);
        break;
    }
  }
  return factory;
}

/** Hands the host's process record to every transport, so stdio children are recorded while they run. */
function withProcesses(inner: TransportFactory, processes: ProcessSink): TransportFactory {
  return (ctx) => inner({ ...ctx, processes });
}

/** The live taps a received message passes, in order, after ingress and the traffic log and before the Client. */
export const INCOMING_TAPS = ['raw-request', 'events'] as const;
/** The live taps a sent message passes, in order, after the Client and before the traffic log and the wire. */
export const OUTGOING_TAPS = ['events', 'phases'] as const;

/** One incoming slot. */
export type IncomingTapName = (typeof INCOMING_TAPS)[number];
/** One outgoing slot. */
export type OutgoingTapName = (typeof OUTGOING_TAPS)[number];

const live = new WeakMap<Transport, LiveTaps>();

/** The live taps of one transport: named slots, each with at most one tap, run in the stated order. */
export class LiveTaps {
  readonly #transport: Transport;
  readonly #incoming = new Map<IncomingTapName, IncomingFilter>();
  readonly #outgoing = new Map<OutgoingTapName, OutgoingRewrite>();
  readonly #closed = new Map<IncomingTapName, () => void>();
  #incomingInstalled = false;
  #outgoingInstalled = false;
  #closedInstalled = false;

  private constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** The live taps of a transport, created on first use. */
  static of(transport: Transport): LiveTaps {
    let taps = live.get(transport);
    if (!taps) {
      taps = new LiveTaps(transport);
      live.set(transport, taps);
    }
    return taps;
  }

  /**
   * Fills an incoming slot: `take` sees each received message its turn comes to and returns true to consume it.
   * Returns false, installing nothing, while the transport has no Client's handler to sit in front of.
   */
  incoming(name: IncomingTapName, take: IncomingFilter): boolean {
    if (!this.#incomingInstalled) {
      if (!interceptIncoming(this.#transport, (message, extra) => this.#take(message, extra))) return false;
      this.#incomingInstalled = true;
    }
    this.#incoming.set(name, take);
    return true;
  }

  /** Fills an outgoing slot: `rewrite` sees each sent message its turn comes to and may replace it (before or after connect). */
  outgoing(name: OutgoingTapName, rewrite: OutgoingRewrite): void {
    if (!this.#outgoingInstalled) {
      interceptOutgoing(this.#transport, (message, options) => this.#rewrite(message, options));
      this.#outgoingInstalled = true;
    }
    this.#outgoing.set(name, rewrite);
  }

  /** Runs `before` when the connected transport closes, ahead of the Client's teardown; false while not connected. */
  closed(name: IncomingTapName, before: () => void): boolean {
    if (!this.#closedInstalled) {
      if (!interceptClosed(this.#transport, () => this.#close())) return false;
      this.#closedInstalled = true;
    }
    this.#closed.set(name, before);
    return true;
  }

  #take(message: JSONRPCMessage, extra: Parameters<IncomingFilter>[1]): boolean {
    for (const name of INCOMING_TAPS) if (this.#incoming.get(name)?.(message, extra) === true) return true;
    return false;
  }

  #rewrite(
    message: JSONRPCMessage,
    options: TransportSendOptions | undefined,
  ): { message: JSONRPCMessage; options?: TransportSendOptions } | undefined {
    let current: { message: JSONRPCMessage; options?: TransportSendOptions } | undefined;
    for (const name of OUTGOING_TAPS) {
      const next = this.#outgoing.get(name)?.(current?.message ?? message, current ? current.options : options);
      if (next) current = next;
    }
    return current;
  }

  #close(): void {
    for (const name of INCOMING_TAPS) this.#closed.get(name)?.();
  }
}
