// A raw request path beside the SDK client, for 2026-07-28 traffic the SDK's wire codec rejects.
//
// SDK 2.4.0 decodes every modern-era result itself and rejects `resultType: "task"` (the tasks extension's
// `CreateTaskResult`) with UNSUPPORTED_RESULT_TYPE before the caller sees it; it has no option or hook to
// accept another result type. `@modelcontextprotocol/ext-tasks` 0.2.2 has the same limit and asks the host
// for a `rawDispatch` ("host-owned request coordinator used when SDK wire codecs reject V2 task traffic").
// This is that coordinator, kept as small as possible: it writes the request on the client's own transport
// (with the client's own per-request `_meta` envelope) under a string id the SDK never uses, and takes the
// matching response and progress notifications off the transport (its live taps' first slot) before the SDK sees them. Everything else
// still flows to the SDK untouched. Cancellation follows the SDK's own rule: on a 2026-07-28 connection over a
// transport with one underlying request per message (Streamable HTTP: a POST each), closing that request's
// stream is the cancellation signal; elsewhere (stdio, 2025 sessions) it is `notifications/cancelled`.
import { ProtocolError, SdkError, SdkErrorCode, type Client, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { isObject, type JsonObject } from '../json.js';
import { outboundMetaEnvelope } from '../sdk/seams.js';
import { LiveTaps } from '../transports/pipeline.js';

/** Options for one raw request. */
export interface RawRequestOptions {
  signal?: AbortSignal;
  /** Milliseconds until the request fails with a RequestTimeout SdkError (and is cancelled). */
  timeout: number;
  onprogress?: (p: { progress: number; total?: number; message?: string }) => void;
}

interface Pending {
  resolve: (result: JsonObject) => void;
  reject: (err: unknown) => void;
}

interface Tap {
  pending: Map<string, Pending>;
  progress: Map<string, NonNullable<RawRequestOptions['onprogress']>>;
}

const taps = new WeakMap<Transport, Tap>();
let sequence = 0;

/** Takes our own responses and progress notifications off the transport; returns true when consumed. */
function consume(tap: Tap, message: JSONRPCMessage): boolean {
  const m = message as JsonObject;
  if (typeof m.id === 'string' && m.method === undefined) {
    const pending = tap.pending.get(m.id);
    if (!pending) return false;
    if (isObject(m.error)) {
      const e = m.error;
      pending.reject(
        new ProtocolError(typeof e.code === 'number' ? e.code : -32603, typeof e.message === 'string' ? e.message : 'Error', e.data),
      );
    } else pending.resolve(isObject(m.result) ? m.result : {});
    return true;
  }
  if (m.method === 'notifications/progress' && isObject(m.params) && typeof m.params.progressToken === 'string') {
    const handler = tap.progress.get(m.params.progressToken);
    if (!handler) return false;
    const p = m.params;
    if (typeof p.progress === 'number')
      handler({
        progress: p.progress,
        ...(typeof p.total === 'number' ? { total: p.total } : {}),
        ...(typeof p.message === 'string' ? { message: p.message } : {}),
      });
    return true;
  }
  return false;
}

/** Our tap on the transport's live taps (the pipeline's first incoming slot); undefined when it cannot sit there. */
function tapFor(transport: Transport): Tap | undefined {
  const existing = taps.get(transport);
  if (existing) return existing;
  const tap: Tap = { pending: new Map(), progress: new Map() };
  const live = LiveTaps.of(transport);
  if (!live.incoming('raw-request', (message) => consume(tap, message))) return undefined;
  live.closed('raw-request', () => {
    const pending = [...tap.pending.values()];
    tap.pending.clear();
    tap.progress.clear();
    for (const p of pending) p.reject(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
  });
  taps.set(transport, tap);
  return tap;
}

/** The `_meta` envelope the SDK client attaches to its own requests on this connection (2026-07-28). */
export function outboundEnvelope(client: Client): JsonObject {
  const envelope = outboundMetaEnvelope(client);
  if (envelope) return envelope;
  const version = client.getNegotiatedProtocolVersion();
  return version ? { 'io.modelcontextprotocol/protocolVersion': version } : {};
}

/**
 * Sends one request on the client's transport and returns the raw JSON-RPC result, undecoded.
 * Throws a ProtocolError for a JSON-RPC error, an SdkError on timeout / closed connection, or the signal's
 * reason when aborted; on timeout or abort the request is cancelled: its HTTP request is closed on a
 * 2026-07-28 Streamable HTTP connection, otherwise the server is sent `notifications/cancelled`.
 */
export function rawRequest(client: Client, method: string, params: JsonObject, opts: RawRequestOptions): Promise<JsonObject> {
  const transport = client.transport;
  if (!transport) return Promise.reject(new SdkError(SdkErrorCode.NotConnected, 'Not connected'));
  if (opts.signal?.aborted) return Promise.reject(opts.signal.reason);
  const tap = tapFor(transport);
  if (!tap) return Promise.reject(new SdkError(SdkErrorCode.NotConnected, 'Not connected'));
  const id = `switchboard-raw-${++sequence}`;
  // Over Streamable HTTP on 2026-07-28 a separately POSTed notifications/cancelled cannot reach the request
  // (the server is stateless; the SDK server serves each POST on its own instance) and the POST would stay
  // open until the server answered: abort the POST instead, as the SDK does for its own requests.
  const requestAbort = transport.hasPerRequestStream === true && client.getProtocolEra() === 'modern' ? new AbortController() : undefined;
  const callerMeta = isObject(params._meta) ? params._meta : {};
  const message = {
    jsonrpc: '2.0' as const,
    id,
    method,
    params: {
      ...params,
      _meta: { ...outboundEnvelope(client), ...callerMeta, ...(opts.onprogress ? { progressToken: id } : {}) },
    },
  };

  return new Promise<JsonObject>((resolve, reject) => {
    const cleanup = (): void => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      tap.pending.delete(id);
      tap.progress.delete(id);
    };
    const cancel = (reason: unknown, err: unknown): void => {
      if (!tap.pending.has(id)) return;
      cleanup();
      if (requestAbort) requestAbort.abort(reason);
      else
        client
          .notification({ method: 'notifications/cancelled', params: { requestId: id, reason: String(reason) } })
          .catch(() => undefined);
      reject(err);
    };
    const onAbort = (): void => cancel(opts.signal?.reason, opts.signal?.reason);
    tap.pending.set(id, {
      resolve: (r) => {
        cleanup();
        resolve(r);
      },
      reject: (e) => {
        cleanup();
        reject(e);
      },
    });
    if (opts.onprogress) tap.progress.set(id, opts.onprogress);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(
      () => cancel('Request timed out', new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout: opts.timeout })),
      opts.timeout,
    );
    transport.send(message as JSONRPCMessage, requestAbort ? { requestSignal: requestAbort.signal } : undefined).catch((err: unknown) => {
      if (!tap.pending.has(id)) return;
      cleanup();
      reject(err);
    });
  });
}
