// Puts spans around the core's operations a person or a client starts: tool calls (whoever made them), resource
// reads and gateway requests. Each wraps the service's own method on the instance, so the services stay unaware
// of tracing and the round trips they cause (traced at the transport) become the operation's children.
import type { CallService } from '../calls/call-service.js';
import type { ResourceService } from '../resources/resource-service.js';
import { ATTR, jsonBytes, safeUri } from './attributes.js';
import type { Telemetry } from './telemetry.js';

/** Every tool call (the person's, an MCP App's, a gateway client's) is a span named after the tool. */
export function instrumentCalls(calls: CallService, telemetry: Telemetry): void {
  if (!telemetry.enabled) return;
  const callRoute = calls.callRoute.bind(calls);
  calls.callRoute = (route, args, callIdOrOptions) => {
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
  if (!telemetry.enabled) return;
  const read = resources.read.bind(resources);
  resources.read = (id, target) =>
    telemetry.run(
      'read resource',
      'internal',
      { [ATTR.serverId]: id, [ATTR.resourceUri]: 'uri' in target ? safeUri(target.uri) : safeUri(target.uriTemplate) },
      async (span) => {
        const result = await read(id, target);
        span.set({ [ATTR.status]: 'ok', [ATTR.resultBytes]: jsonBytes(result.parts), 'switchboard.resource.parts': result.parts.length });
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

/** Each gateway request (authenticated, past the front's checks) is a server span; its calls are its children. */
export function gatewayRequestTracer(telemetry: Telemetry): TraceGatewayRequest {
  return async (clientId, request, handle) => {
    const method = await methodsOf(request);
    return telemetry.run(
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
        return response;
      },
    );
  };
}
