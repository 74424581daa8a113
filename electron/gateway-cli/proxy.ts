// The stdio entry point's MCP proxy: an SDK server on stdio (serveStdio: both protocol eras) whose handlers
// forward to the running Switchboard gateway through an SDK client. Progress, cancellation and input rounds pass
// through both ways; the end client's elicitation capability rides on each forwarded call, so the gateway asks
// that client (or shows Switchboard's dialog when it cannot answer). List changes from the gateway reach the
// stdio client as list_changed notifications. It starts nothing and reads nothing but the endpoint file.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolResult,
  type InputRequests,
  type ServerCapabilities,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';

const Raw = z.looseObject({});
const CLIENT_CAPABILITIES_META = 'io.modelcontextprotocol/clientCapabilities';

/** Connects the SDK client to the gateway with a token; rejects with the SDK's error. */
export async function connectGateway(
  url: string,
  token: string,
  version: string,
  onChanged: (kind: 'tools' | 'prompts' | 'resources') => void,
): Promise<Client> {
  const changed = (kind: 'tools' | 'prompts' | 'resources') => ({ autoRefresh: false, debounceMs: 50, onChanged: () => onChanged(kind) });
  const client = new Client(
    { name: 'switchboard-gateway-stdio', version },
    {
      capabilities: { elicitation: { form: {}, url: {} } },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      listChanged: { tools: changed('tools'), prompts: changed('prompts'), resources: changed('resources') },
    },
  );
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
    redirectPolicy: 'same-origin',
  });
  await client.connect(transport, { timeout: 10_000 });
  return client;
}

/**
 * The end client's declared capabilities reduced to what the gateway acts on (elicitation modes): from the
 * request's envelope on 2026-07-28, from the handshake on a 2025-11-25 connection.
 */
function endClientCapabilities(server: Server, ctx: ServerContext): Record<string, unknown> {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const declared = (envelope?.[CLIENT_CAPABILITIES_META] ?? server.getClientCapabilities()) as { elicitation?: unknown } | undefined;
  const e = declared?.elicitation as Record<string, unknown> | undefined;
  if (!e) return {};
  const form = 'form' in e || (!('form' in e) && !('url' in e));
  return { elicitation: { ...(form ? { form: {} } : {}), ...('url' in e ? { url: {} } : {}) } };
}

function forwardError(err: unknown): never {
  if (err instanceof ProtocolError) throw err;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'number') throw new ProtocolError(code, String((err as Error).message ?? 'The gateway refused the request'));
  throw new ProtocolError(
    ProtocolErrorCode.InternalError,
    'Switchboard is not reachable (it may have quit, or its gateway was turned off).',
  );
}

/** Builds one stdio server instance that forwards to `upstream`. */
export function proxyServer(upstream: Client, version: string): Server {
  const caps = upstream.getServerCapabilities() ?? {};
  const capabilities: ServerCapabilities = {
    ...(caps.tools ? { tools: { listChanged: true } } : {}),
    ...(caps.prompts ? { prompts: { listChanged: true } } : {}),
    ...(caps.resources ? { resources: { listChanged: true } } : {}),
    ...(caps.completions ? { completions: {} } : {}),
  };
  const instructions = upstream.getInstructions();
  const server = new Server(
    { name: 'switchboard-gateway', title: 'Switchboard', version },
    { capabilities, ...(instructions ? { instructions } : {}) },
  );
  const forward =
    (method: string) =>
    async (request: { params?: unknown }, ctx: ServerContext): Promise<never> => {
      try {
        return (await upstream.request({ method, params: (request.params ?? {}) as Record<string, unknown> }, Raw, {
          signal: ctx.mcpReq.signal,
        })) as never;
      } catch (err) {
        forwardError(err);
      }
    };
  if (caps.tools) {
    server.setRequestHandler('tools/list', forward('tools/list'));
    server.setRequestHandler('tools/call', async (request, ctx): Promise<CallToolResult> => {
      const token = ctx.mcpReq._meta?.progressToken;
      const state = ctx.mcpReq.requestState();
      const params: Record<string, unknown> = {
        name: request.params.name,
        arguments: request.params.arguments ?? {},
        ...(ctx.mcpReq.inputResponses ? { inputResponses: ctx.mcpReq.inputResponses } : {}),
        ...(typeof state === 'string' ? { requestState: state } : {}),
        _meta: { [CLIENT_CAPABILITIES_META]: endClientCapabilities(server, ctx) },
      };
      let result: Record<string, unknown>;
      try {
        result = (await upstream.request({ method: 'tools/call', params }, Raw, {
          signal: ctx.mcpReq.signal,
          timeout: 24 * 3600 * 1000,
          allowInputRequired: true,
          ...(token !== undefined
            ? {
                onprogress: (p: { progress: number; total?: number | undefined; message?: string | undefined }) =>
                  void ctx.mcpReq
                    .notify({ method: 'notifications/progress', params: { progressToken: token, ...p } })
                    .catch(() => undefined),
              }
            : {}),
        })) as Record<string, unknown>;
      } catch (err) {
        forwardError(err);
      }
      if (result.resultType === 'input_required') {
        return inputRequired({
          inputRequests: result.inputRequests as InputRequests,
          ...(typeof result.requestState === 'string' ? { requestState: result.requestState } : {}),
        }) as unknown as CallToolResult;
      }
      const { resultType: _ignored, ...rest } = result;
      return rest as CallToolResult;
    });
  }
  if (caps.prompts) {
    server.setRequestHandler('prompts/list', forward('prompts/list'));
    server.setRequestHandler('prompts/get', forward('prompts/get'));
  }
  if (caps.resources) {
    server.setRequestHandler('resources/list', forward('resources/list'));
    server.setRequestHandler('resources/templates/list', forward('resources/templates/list'));
    server.setRequestHandler('resources/read', forward('resources/read'));
  }
  if (caps.completions) server.setRequestHandler('completion/complete', forward('completion/complete'));
  return server;
}
