// The attribute names spans carry (OpenTelemetry's MCP and GenAI conventions where they exist, `switchboard.*`
// otherwise) and the helpers that keep values safe: sizes instead of payloads, URIs without credentials or queries.

/** Attribute names, in one place so tests and dashboards agree. */
export const ATTR = {
  serverId: 'switchboard.server.id',
  transport: 'switchboard.transport',
  method: 'mcp.method.name',
  requestId: 'jsonrpc.request.id',
  protocolVersion: 'mcp.protocol.version',
  tool: 'gen_ai.tool.name',
  operation: 'gen_ai.operation.name',
  localTool: 'switchboard.tool.local_name',
  callId: 'switchboard.call.id',
  origin: 'switchboard.call.origin',
  status: 'switchboard.status',
  resourceUri: 'mcp.resource.uri',
  prompt: 'switchboard.prompt.name',
  requestBytes: 'switchboard.request.bytes',
  responseBytes: 'switchboard.response.bytes',
  argumentsBytes: 'switchboard.arguments.bytes',
  resultBytes: 'switchboard.result.bytes',
  rpcErrorCode: 'rpc.jsonrpc.error_code',
  gatewayClient: 'switchboard.gateway.client.id',
  httpMethod: 'http.request.method',
  httpStatus: 'http.response.status_code',
  eventName: 'switchboard.event.name',
  eventDelivery: 'switchboard.event.delivery',
  eventCount: 'switchboard.event.count',
} as const;

/** A URI fit for a span: scheme, host and path only (user info, query and fragment can carry secrets), bounded. */
export function safeUri(uri: unknown): string | undefined {
  if (typeof uri !== 'string') return undefined;
  let text: string;
  try {
    const url = new URL(uri);
    text = url.host ? `${url.protocol}//${url.host}${url.pathname}` : `${url.protocol}${url.pathname}`;
  } catch {
    text = uri.replace(/[?#].*$/s, '');
  }
  return text.length > 512 ? `${text.slice(0, 512)}…` : text;
}

/** A name from a request (a tool or prompt name), bounded and stripped of control characters. */
export function safeName(name: unknown): string | undefined {
  if (typeof name !== 'string') return undefined;
  const clean = name.replace(/[\u0000-\u001f\u007f]/g, '');
  return clean.length > 200 ? `${clean.slice(0, 200)}…` : clean;
}

/** The UTF-8 size of a JSON value as sent (0 for what cannot be serialised). */
export function jsonBytes(value: unknown): number {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? 0 : Buffer.byteLength(text, 'utf8');
  } catch {
    return 0;
  }
}

/** A delivery span's attributes: the subscription's server, event type and mode, and how many arrived. */
export function deliverySpan(
  sub: { serverId: string; name: string; mode: string },
  count: number,
): Record<string, string | number | undefined> {
  return {
    [ATTR.serverId]: sub.serverId,
    [ATTR.eventName]: safeName(sub.name),
    [ATTR.eventDelivery]: sub.mode,
    [ATTR.eventCount]: count,
  };
}
