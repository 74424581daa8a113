// Puts spans around the core's operations a person or a client starts: tool calls (whoever made them), resource
// reads and gateway requests. Each wraps the service's own method on the instance, so the services stay unaware
// of tracing and the round trips they cause (traced at the transport) become the operation's children.
import type { CallService } from '../calls/call-service.js';
import type { ResourceService } from '../resources/resource-service.js';
import { ATTR, jsonBytes, safeUri } from './attributes.js';
import { NO_TELEMETRY, type SpanHandle, type Telemetry } from './telemetry.js';

/** Every tool call (the person's, an MCP App's, a gateway client's) is a span named after the tool. */
export function instrumentCalls(calls: CallService, telemetry: Telemetry): void {
  if (telemetry === NO_TELEMETRY) return;
  const callRoute = calls.callRoute.bind(calls);
  calls.callRoute = (route, args, callIdOrOptions) => {
    // Tracing switched off at run time: the call as if unwrapped (no argument sizes measured).
    if (!telemetry.enabled) return callRoute(route, args, callIdOrOptions);
    const origin = typeof callIdOrOptions === 'object' ? callIdOrOptions.origin?.kind : undefined;
    return telemetry.run(
      `call ${route.originalName}`,
      'internal',
      {
        [ATTR.serverId]: route.serverId,
        [ATTR.operation]: 'execute_tool',
        [ATTR.tool]: route.originalName,
        [ATTR.localTool]: route.localName,
        [ATTR.origin]: origin ?? 'person',
        [ATTR.argumentsBytes]: jsonBytes(args),
      },
      async (span) => {
        const outcome = await callRoute(route, args, callIdOrOptions);
        span.set({ [ATTR.callId]: outcome.callId, [ATTR.status]: outcome.status, [ATTR.resultBytes]: outcome.resultBytes });
        if (outcome.status !== 'ok') span.fail(outcome.error?.code ?? outcome.status);
        return outcome;
      },
    );
  };
}

/** Every resource read (a URI or an expanded template) is a span. */
export function instrumentResources(resources: ResourceService, telemetry: Telemetry): void {
  if (telemetry === NO_TELEMETRY) return;
  const read = resources.read.bind(resources);
  resources.read = (id, target) =>
    !telemetry.enabled
      ? read(id, target)
      : telemetry.run(
          'read resource',
          'internal',
          { [ATTR.serverId]: id, [ATTR.resourceUri]: 'uri' in target ? safeUri(target.uri) : safeUri(target.uriTemplate) },
          async (span) => {
            const result = await read(id, target);
            span.set({
              [ATTR.status]: 'ok',
              [ATTR.resultBytes]: jsonBytes(result.parts),
              'switchboard.resource.parts': result.parts.length,
            });
            return result;
          },
        );
}

/** Largest request body looked into for its JSON-RPC method names (the front bounds bodies anyway). */
const PEEK_BYTES = 1024 * 1024;

/** The JSON-RPC methods a gateway request carries (one, or a batch's), without keeping anything else of it. */
async function methodsOf(request: Request): Promise<string | undefined> {
  if (request.method !== 'POST') return undefined;
  const length = Number(request.headers.get('content-length') ?? '0');
  if (!Number.isFinite(length) || length > PEEK_BYTES) return undefined;
  try {
    const body: unknown = JSON.parse(await request.clone().text());
    const list = Array.isArray(body) ? body : [body];
    const methods = list
      .map((m) => (typeof m === 'object' && m !== null ? (m as { method?: unknown }).method : undefined))
      .filter((m): m is string => typeof m === 'string')
      .map((m) => m.slice(0, 100));
    return methods.length > 0 ? methods.slice(0, 10).join(',') : undefined;
  } catch {
    return undefined;
  }
}

/** How the gateway hands each authenticated HTTP request to tracing. */
export type TraceGatewayRequest = (clientId: string, request: Request, handle: () => Promise<Response>) => Promise<Response>;

/**
 * Each gateway request (authenticated, past the front's checks) is a server span; its calls are its children. The
 * span lasts until the response is finished: its whole body sent (an SSE stream to its end), or the client gone.
 */
export function gatewayRequestTracer(telemetry: Telemetry): TraceGatewayRequest {
  return async (clientId, request, handle) => {
    if (!telemetry.enabled) return handle();
    const method = await methodsOf(request);
    return telemetry.enter(
      method !== undefined ? `gateway ${method}` : `gateway ${request.method}`,
      'server',
      {
        [ATTR.gatewayClient]: clientId,
        [ATTR.httpMethod]: request.method,
        [ATTR.method]: method,
        [ATTR.requestBytes]: Number(request.headers.get('content-length') ?? '0') || undefined,
      },
      async (span) => {
        const response = await handle();
        span.set({ [ATTR.httpStatus]: response.status });
        if (response.status >= 500) span.fail(String(response.status));
        return endsWithBody(response, span);
      },
    );
  };
}

/** The response with a body that ends `span` when it is read to its end, fails, or is cancelled by the client. */
function endsWithBody(response: Response, span: SpanHandle): Response {
  const body = response.body;
  if (body === null) {
    span.set({ [ATTR.responseBytes]: 0 });
    span.end();
    return response;
  }
  const reader = body.getReader();
  let bytes = 0;
  const finish = (failure?: string): void => {
    span.set({ [ATTR.responseBytes]: bytes });
    if (failure !== undefined) span.fail(failure);
    span.end();
  };
  const traced = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            finish();
            controller.close();
            return;
          }
          bytes += value.byteLength;
          controller.enqueue(value);
        } catch (err) {
          finish('stream_failed');
          controller.error(err);
        }
      },
      cancel(reason) {
        // The client hung up mid-stream (an SSE stream it closed): that ends the request, not as a failure.
        span.set({ 'switchboard.response.cancelled': true });
        finish();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(traced, { status: response.status, statusText: response.statusText, headers: response.headers });
}
