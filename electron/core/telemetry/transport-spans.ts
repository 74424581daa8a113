// A transport decorator that turns a session's JSON-RPC traffic into spans: a `connect` span from the moment the
// transport opens until the server answers the first request (the handshake), one client span per request the
// session sends (tools/call, tasks/get polls, resources/read …) ended by its response, and one server span per
// request the server sends (sampling, elicitation, roots) ended by our answer. Requests inherit the current span,
// so a call's round trips land in the call's trace. Only methods, ids, names, sizes and error codes are recorded.
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type { TransportFactory } from '../transports/transport-factory.js';
import { ATTR, jsonBytes, safeName, safeUri } from './attributes.js';
import { NO_TELEMETRY, type SpanHandle, type Telemetry } from './telemetry.js';

/** Requests in flight tracked per transport; beyond it the oldest are ended unanswered (a server that never answers). */
const MAX_PENDING = 4096;

type OnMessage = NonNullable<Transport['onmessage']>;
type OnClose = NonNullable<Transport['onclose']>;
type Send = Transport['send'];

interface Fields {
  method?: unknown;
  id?: unknown;
  params?: unknown;
  result?: unknown;
  error?: unknown;
}

/** The protocol version a 2026-07-28 request states in its envelope. */
function envelopeVersion(params: unknown): string | undefined {
  const meta = typeof params === 'object' && params !== null ? (params as { _meta?: unknown })._meta : undefined;
  const v =
    typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>)['io.modelcontextprotocol/protocolVersion'] : undefined;
  return typeof v === 'string' ? v.slice(0, 32) : undefined;
}

/** The target a request names, for the span name and its attribute. */
function targetOf(method: string, params: unknown): { name?: string; attributes: Record<string, string | undefined> } {
  const p = typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : {};
  if (method === 'tools/call') {
    const tool = safeName(p['name']);
    return { ...(tool !== undefined ? { name: tool } : {}), attributes: { [ATTR.tool]: tool } };
  }
  if (method === 'prompts/get') {
    const prompt = safeName(p['name']);
    return { ...(prompt !== undefined ? { name: prompt } : {}), attributes: { [ATTR.prompt]: prompt } };
  }
  if (method.startsWith('resources/') && p['uri'] !== undefined) {
    const uri = safeUri(p['uri']);
    return { ...(uri !== undefined ? { name: uri } : {}), attributes: { [ATTR.resourceUri]: uri } };
  }
  return { attributes: {} };
}

function finish(span: SpanHandle, message: Fields): void {
  span.set({ [ATTR.responseBytes]: jsonBytes(message) });
  if (message.error !== undefined) {
    const code = (message.error as { code?: unknown }).code;
    span.set({ [ATTR.rpcErrorCode]: typeof code === 'number' ? code : undefined, [ATTR.status]: 'error' });
    span.fail(typeof code === 'number' ? String(code) : 'jsonrpc_error');
  } else {
    const isError = (message.result as { isError?: unknown } | undefined)?.isError === true;
    span.set({ [ATTR.status]: isError ? 'tool_error' : 'ok' });
  }
  span.end();
}

/** Wraps one transport so its requests become spans. */
function traceTransport(inner: Transport, serverId: string, kind: string, telemetry: Telemetry): Transport {
  const base = { [ATTR.serverId]: serverId, [ATTR.transport]: kind };
  // Tracing can be switched on or off while the transport lives: each new span asks whether it is on.
  let connect: SpanHandle | undefined = telemetry.enabled ? telemetry.start(`connect ${serverId}`, 'client', base) : undefined;
  const sent = new Map<string, { span: SpanHandle; method: string }>();
  const received = new Map<string, SpanHandle>();
  let outerOnMessage: OnMessage | undefined;
  let outerOnClose: OnClose | undefined;
  let outerSend: Send | undefined;

  const endConnect = (failure?: string, protocolVersion?: unknown): void => {
    if (!connect) return;
    if (typeof protocolVersion === 'string') connect.set({ [ATTR.protocolVersion]: protocolVersion.slice(0, 32) });
    if (failure) connect.fail(failure);
    connect.end();
    connect = undefined;
  };
  const endAll = (why: string): void => {
    for (const { span } of sent.values()) {
      span.fail(why);
      span.end();
    }
    for (const span of received.values()) {
      span.fail(why);
      span.end();
    }
    sent.clear();
    received.clear();
    endConnect(why);
  };
  const bounded = <V>(map: Map<string, V>, end: (v: V) => void): void => {
    if (map.size < MAX_PENDING) return;
    const [oldest] = map.entries();
    if (!oldest) return;
    map.delete(oldest[0]);
    end(oldest[1]);
  };
  // A server request made while a tool call is in flight belongs to that call (MRTR and legacy elicitation, sampling).
  const callInFlight = (): SpanHandle | undefined => {
    let last: SpanHandle | undefined;
    for (const entry of sent.values()) if (entry.method === 'tools/call') last = entry.span;
    return last;
  };

  const tracedSend: Send = (message, options) => {
    const m = message as Fields;
    if (typeof m.method === 'string' && m.id !== undefined && telemetry.enabled) {
      const target = targetOf(m.method, m.params);
      // The handshake (initialize, or discovery on stateless servers) is the connect's own round trip.
      const parent = connect && sent.size === 0 ? connect : undefined;
      const span = telemetry.start(
        target.name !== undefined ? `${m.method} ${target.name}` : m.method,
        'client',
        {
          ...base,
          [ATTR.method]: m.method,
          [ATTR.requestId]: String(m.id),
          [ATTR.requestBytes]: jsonBytes(message),
          [ATTR.protocolVersion]: envelopeVersion(m.params),
          ...target.attributes,
        },
        parent,
      );
      bounded(sent, (e) => {
        e.span.fail('unanswered');
        e.span.end();
      });
      sent.set(String(m.id), { span, method: m.method });
    } else if (m.id !== undefined && m.method === undefined) {
      const span = received.get(String(m.id));
      if (span) {
        received.delete(String(m.id));
        finish(span, m);
      }
    }
    return inner.send(message, options).catch((err: unknown) => {
      const entry = m.method !== undefined && m.id !== undefined ? sent.get(String(m.id)) : undefined;
      if (entry) {
        sent.delete(String(m.id));
        entry.span.fail('send_failed');
        entry.span.end();
      }
      throw err;
    });
  };

  inner.onmessage = ((message: JSONRPCMessage, extra?: unknown) => {
    const m = message as Fields;
    if (m.id !== undefined && m.method === undefined) {
      const entry = sent.get(String(m.id));
      if (entry) {
        sent.delete(String(m.id));
        const handshake = connect !== undefined;
        finish(entry.span, m);
        if (handshake)
          endConnect(
            m.error !== undefined ? 'handshake_failed' : undefined,
            (m.result as { protocolVersion?: unknown } | undefined)?.protocolVersion,
          );
      }
    } else if (typeof m.method === 'string' && m.id !== undefined && telemetry.enabled) {
      const span = telemetry.start(
        m.method,
        'server',
        { ...base, [ATTR.method]: m.method, [ATTR.requestId]: String(m.id), [ATTR.requestBytes]: jsonBytes(message) },
        callInFlight(),
      );
      bounded(received, (s) => {
        s.fail('unanswered');
        s.end();
      });
      received.set(String(m.id), span);
    }
    (outerOnMessage as ((msg: JSONRPCMessage, e?: unknown) => void) | undefined)?.(message, extra);
  }) as OnMessage;
  inner.onclose = () => {
    endAll('transport_closed');
    outerOnClose?.();
  };

  return new Proxy(inner, {
    get(target, prop) {
      if (prop === 'send') return outerSend ?? tracedSend;
      if (prop === 'onmessage') return outerOnMessage;
      if (prop === 'onclose') return outerOnClose;
      if (prop === 'start')
        return () =>
          target.start().catch((err: unknown) => {
            endAll('start_failed');
            throw err;
          });
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
    set(target, prop, value: unknown) {
      if (prop === 'send') outerSend = value as Send;
      else if (prop === 'onmessage') outerOnMessage = value as OnMessage | undefined;
      else if (prop === 'onclose') outerOnClose = value as OnClose | undefined;
      else return Reflect.set(target, prop, value, target);
      return true;
    },
  });
}

/** A factory whose transports are traced; with tracing that can never turn on, the factory itself. */
export function traceFactory(factory: TransportFactory, telemetry: Telemetry): TransportFactory {
  if (telemetry === NO_TELEMETRY) return factory;
  return (ctx) => {
    const opened = factory(ctx);
    // Only connections opened while tracing is on are wrapped: the wrapper is a proxy, and the auth and DPoP layers
    // must see the transport itself whenever nobody asked for traces. Switching tracing on reaches a server at its
    // next connect; calls, reads and gateway requests follow the switch at once.
    if (!telemetry.enabled) return opened;
    return { ...opened, transport: traceTransport(opened.transport, ctx.config.id, ctx.config.transport.type, telemetry) };
  };
}
