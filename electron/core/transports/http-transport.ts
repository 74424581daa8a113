// Streamable HTTP and legacy HTTP+SSE transports: the SDK's own transports, given our guarded fetch.
import { SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { blockedPortMessage, fetchBlockedPort } from '../../../shared/blocked-ports.js';
import { checkServerUrl } from '../../../shared/config.js';
import { AppError } from '../../../shared/errors.js';
import { checkHeaders, createGuardedFetch, displayUrl } from './http-guards.js';
import type { OpenedTransport, TransportContext } from './transport-factory.js';

/** How long release() waits for the DELETE that ends a Streamable HTTP session. */
const TERMINATE_SESSION_MS = 1000;

/** Opens a Streamable HTTP (`http`) or legacy SSE (`sse`) transport. */
export function openHttpTransport(ctx: TransportContext): OpenedTransport {
  const { config } = ctx;
  const t = config.transport;
  if (t.type === 'stdio') throw new AppError('internal', 'openHttpTransport called for a stdio server', { serverId: config.id });

  // Settings can be hand-edited: check again what the schema checked on the way in.
  const urlProblem = checkServerUrl(t.url, t.allowInsecureHttp);
  if (urlProblem !== null) {
    return refused(
      new AppError('url_refused', `${urlProblem}: ${displayUrl(t.url)}`, { serverId: config.id, evidence: { url: displayUrl(t.url) } }),
    );
  }
  const blocked = fetchBlockedPort(t.url);
  if (blocked !== undefined) {
    return refused(
      new AppError('port_blocked', `${blockedPortMessage(blocked)}: ${displayUrl(t.url)}`, {
        serverId: config.id,
        evidence: { url: displayUrl(t.url) },
      }),
    );
  }
  // Secret header values were read from the credential store by the session; one still missing cannot be sent.
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(t.headers)) {
    if (typeof value !== 'string') {
      return refused(
        new AppError('config_invalid', `The secret value of the ${name} header is not stored; enter it again in the server's settings`, {
          serverId: config.id,
        }),
      );
    }
    headers[name] = value;
  }
  const headerProblem = checkHeaders(headers, config.id);
  if (headerProblem !== null) return refused(headerProblem);

  const guard = createGuardedFetch({
    serverId: config.id,
    serverUrl: t.url,
    allowInsecureHttp: t.allowInsecureHttp,
    headers,
    messageBytes: config.limits.messageBytes,
    kind: t.type,
    log: ctx.log,
    report: (error) => sdkTransport.onerror?.(error),
  });
  const url = new URL(t.url);
  const auth = ctx.auth;
  const dpopFetch = auth?.wrapFetch === undefined ? guard.fetch : (auth.wrapFetch(guard.fetch) as typeof guard.fetch);
  // Authorization sees 401/403 challenges (scope, resource_metadata) and supplies the bearer token.
  const fetchFn: typeof guard.fetch =
    auth === undefined
      ? guard.fetch
      : async (input, init) => {
          const response = await dpopFetch(input, init);
          if ((response.status === 401 || response.status === 403) && response.headers.has('www-authenticate')) auth.onChallenge(response);
          return response;
        };
  const authOpts = auth !== undefined ? { authProvider: auth.provider } : {};
  const sdkTransport =
    t.type === 'http'
      ? new StreamableHTTPClientTransport(url, { fetch: fetchFn, ...authOpts })
      : new SSEClientTransport(url, { fetch: fetchFn, ...authOpts });

  // A refusal inside the SSE stream's fetch reaches the SDK as an untyped SseError: surface ours instead.
  const originalStart = sdkTransport.start.bind(sdkTransport);
  sdkTransport.start = async (): Promise<void> => {
    const startedAt = Date.now();
    try {
      await originalStart();
    } catch (error) {
      const refusal = guard.lastRefusal();
      if (refusal !== undefined && refusal.at >= startedAt && !(error instanceof AppError)) throw refusal.error;
      throw error;
    }
  };

  let releasing: Promise<void> | undefined;
  const release = (): Promise<void> => {
    releasing ??= (async () => {
      if (sdkTransport instanceof StreamableHTTPClientTransport && sdkTransport.sessionId !== undefined) {
        await Promise.race([
          sdkTransport.terminateSession().catch(() => undefined),
          new Promise<void>((resolve) => setTimeout(resolve, TERMINATE_SESSION_MS).unref()),
        ]);
      }
      await sdkTransport.close().catch(() => undefined);
    })();
    return releasing;
  };

  return { transport: sdkTransport, diagnostics: { evidence: () => guard.evidence() }, release };
}

/** A transport that refuses to start, so a refused config fails like any other connect. */
class RefusedTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T) => void) | undefined;
  readonly #error: AppError;

  constructor(error: AppError) {
    this.#error = error;
  }

  start(): Promise<void> {
    return Promise.reject(this.#error);
  }

  send(): Promise<void> {
    return Promise.reject(this.#error);
  }

  async close(): Promise<void> {
    this.onclose?.();
  }
}

function refused(error: AppError): OpenedTransport {
  const transport = new RefusedTransport(error);
  return { transport, diagnostics: { evidence: () => ({ ...error.evidence }) }, release: () => transport.close() };
}
