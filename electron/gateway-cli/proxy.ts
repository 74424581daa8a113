// The stdio entry point's MCP proxy: an SDK server on stdio (serveStdio: both protocol eras) whose handlers
// forward to the running Switchboard gateway through an SDK client. Progress, cancellation and input rounds pass
// through both ways; the end client's elicitation capability rides on each forwarded call, so the gateway asks
// that client (or shows Switchboard's dialog when it cannot answer). List changes from the gateway reach the
// stdio client as list_changed notifications. It starts nothing and reads nothing but the endpoint file.
// While Switchboard's core restarts, the shell answers the gateway's port with 503 (Retry-After): requests are sent
// again after the wait it names (bounded), and once the gap is over the upstream connection is made anew with the
// same parameters (the old core's session and streams are gone), so the stdio client keeps its connection and at
// most hears that the lists changed. An idle client hears it too: the end of the upstream change stream starts the
// new connection without waiting for a request.
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

/** How long requests wait out a gap in the gateway (its core restarting). */
export interface GapLimits {
  /** The first wait when the answer names none. */
  firstWaitMs: number;
  /** Longest single wait, whatever Retry-After says. */
  maxWaitMs: number;
  /** After this long in all, the last answer stands (the client gets an error saying so). */
  totalMs: number;
}

/** A core restart takes a second or two; one that fails to come back is reported within a minute. */
export const GAP_LIMITS: GapLimits = { firstWaitMs: 250, maxWaitMs: 5_000, totalMs: 60_000 };

/** What the stdio entry point tells its stderr (never a token). */
export type ProxyLog = (line: string) => void;

function retryAfterMs(header: string | null): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header.trim());
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** Nobody listens on the gateway's port (the whole app is restarting, or just quit): the request never left. */
function refused(err: unknown): boolean {
  const cause = (err as { cause?: { code?: unknown } }).cause;
  return cause?.code === 'ECONNREFUSED';
}

function sleep(ms: number, signal: AbortSignal | null | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * fetch for the upstream transport: a 503 (the shell answering for a core that is restarting) or a refused
 * connection means the request reached no core, so it is sent again after Retry-After (capped) or a growing wait,
 * until `limits.totalMs`, after which the last answer (or error) stands. `onGap` hears each gap once it has begun.
 * Off until `enabled()` (a first connection to a Switchboard that is not running fails at once).
 */
export function gapRetryingFetch(opts: {
  enabled: () => boolean;
  onGap: (detail: string) => void;
  limits?: GapLimits;
  fetch?: typeof fetch;
}): typeof fetch {
  const limits = opts.limits ?? GAP_LIMITS;
  const inner = opts.fetch ?? fetch;
  return async (input, init) => {
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      let response: Response | undefined;
      let error: unknown;
      try {
        response = await inner(input, init);
      } catch (err) {
        error = err;
      }
      const gap = response !== undefined ? response.status === 503 : refused(error);
      if (!gap || !opts.enabled()) {
        if (response !== undefined) return response;
        throw error;
      }
      const named = response !== undefined ? retryAfterMs(response.headers.get('retry-after')) : undefined;
      const wait = Math.min(named ?? limits.firstWaitMs * 2 ** Math.min(attempt, 5), limits.maxWaitMs);
      if (Date.now() - started + wait > limits.totalMs) {
        if (response !== undefined) return response;
        throw error;
      }
      if (attempt === 0)
        opts.onGap(
          response !== undefined ? "the gateway answered 503 (Switchboard's core is restarting)" : 'the gateway refused the connection',
        );
      await response?.body?.cancel().catch(() => undefined);
      await sleep(wait, init?.signal);
    }
  };
}

/** Connects the SDK client to the gateway with a token; rejects with the SDK's error. */
export async function connectGateway(
  url: string,
  token: string,
  version: string,
  onChanged: (kind: 'tools' | 'prompts' | 'resources') => void,
  fetchFn?: typeof fetch,
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
    ...(fetchFn !== undefined ? { fetch: fetchFn } : {}),
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

/** The HTTP status an SDK error carries, if any. */
export const statusOf = (err: unknown): number | undefined => {
  const e = err as { status?: unknown; data?: { status?: unknown } };
  const status = e.data?.status ?? e.status;
  return typeof status === 'number' ? status : undefined;
};

/**
 * The upstream SDK client, made anew when the gateway's core was replaced: after a gap (its notification streams
 * ended with the old core) before the next request, and when the gateway no longer knows the session (404, per
 * Streamable HTTP) or the token (a new core derives tokens from a new launch key), after which the request is sent
 * again on the new connection.
 */
export class Upstream {
  readonly #open: () => Promise<Client>;
  readonly #log: ProxyLog;
  readonly #reconnected: () => void;
  #client: Client;
  #stale = false;
  #reopening: Promise<Client> | undefined;

  #closed = false;

  constructor(client: Client, opts: { open: () => Promise<Client>; log: ProxyLog; reconnected: () => void }) {
    this.#client = client;
    this.#open = opts.open;
    this.#log = opts.log;
    this.#reconnected = opts.reconnected;
    this.#watch(client);
  }

  /**
   * Hears the loss of the gateway while the stdio client is idle: the connection's change stream (the SDK's standing
   * `subscriptions/listen`) ends when the core behind the gateway dies. Then the connection is made anew at once
   * (waiting out the restart like any request), so the client hears that the lists changed without asking first.
   * Costs nothing while the gateway is up: no probe, only the stream the list changes already come on.
   */
  #watch(client: Client): void {
    const stream = client.autoOpenedSubscription;
    if (stream === undefined) return;
    void stream.closed.then((how) => {
      if (how === 'local' || this.#closed || this.#client !== client) return;
      this.#log(`the gateway's change stream ended (${how}); connecting again`);
      this.#stale = true;
      void this.#reconnectIdle();
    });
  }

  /** Connects again in the background; a failure is said on stderr and left to the next request. */
  async #reconnectIdle(): Promise<void> {
    try {
      await this.#current();
    } catch (err) {
      this.#log(`could not connect to the gateway again (${err instanceof Error ? err.message : String(err)}); the next request will try`);
    }
  }

  /** The first connection's server side (capabilities, instructions): the stdio server offers the same. */
  get first(): Client {
    return this.#client;
  }

  /** The gateway went through a gap: what this connection had open there is gone. */
  markStale(): void {
    this.#stale = true;
  }

  /** Sends one request; `resend` says whether it may be sent again after a connection lost mid-way. */
  async request(
    req: { method: string; params: Record<string, unknown> },
    options: Parameters<Client['request']>[2],
    resend: boolean,
  ): Promise<Record<string, unknown>> {
    for (let tries = 0; ; tries++) {
      const client = await this.#current();
      try {
        return (await client.request(req, Raw, options)) as Record<string, unknown>;
      } catch (err) {
        if (tries > 0 || options?.signal?.aborted) throw err;
        if (statusOf(err) === 404) {
          this.#log(`the gateway no longer knows this session (its core restarted); connecting again and resending ${req.method}`);
          this.#stale = true;
          continue;
        }
        // A new core has a new launch key (the endpoint file names it): the old token was refused, nothing ran.
        if (statusOf(err) === 401) {
          this.#log(`the gateway refused the token (a new core has a new launch key); connecting again and resending ${req.method}`);
          this.#stale = true;
          continue;
        }
        // Lost mid-way: the old core may have run it. A read is sent again; a tool call is not (it could run twice).
        if (this.#stale && resend && statusOf(err) === undefined && typeof (err as { code?: unknown }).code !== 'number') {
          this.#log(`the connection to the gateway was lost during ${req.method}; connecting again and resending it`);
          continue;
        }
        throw err;
      }
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#client.close().catch(() => undefined);
  }

  #current(): Promise<Client> {
    if (!this.#stale) return Promise.resolve(this.#client);
    this.#reopening ??= (async () => {
      const old = this.#client;
      try {
        const client = await this.#openThroughGap();
        this.#client = client;
        this.#stale = false;
        this.#watch(client);
        this.#log("connected to Switchboard's gateway again after its core restarted");
        void old.close().catch(() => undefined);
        // The new core's lists may differ from what the client last saw.
        this.#reconnected();
        return client;
      } finally {
        this.#reopening = undefined;
      }
    })();
    return this.#reopening;
  }

  /**
   * Opens a connection, trying again for as long as a request waits out the gap: a try begun the moment the old core
   * went may meet the door between cores (a reset connection, no endpoint file yet).
   */
  async #openThroughGap(limits: GapLimits = GAP_LIMITS): Promise<Client> {
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#open();
      } catch (err) {
        const wait = Math.min(limits.firstWaitMs * 2 ** Math.min(attempt, 5), limits.maxWaitMs);
        if (this.#closed || Date.now() - started + wait > limits.totalMs) throw err;
        await sleep(wait, undefined);
      }
    }
  }
}

function forwardError(err: unknown): never {
  if (err instanceof ProtocolError) throw err;
  if (statusOf(err) === 503)
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      `Switchboard's core did not come back within ${Math.round(GAP_LIMITS.totalMs / 1000)} s (its gateway answered 503 throughout); try again later.`,
    );
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'number') throw new ProtocolError(code, String((err as Error).message ?? 'The gateway refused the request'));
  throw new ProtocolError(
    ProtocolErrorCode.InternalError,
    'Switchboard is not reachable (it may have quit, or its gateway was turned off).',
  );
}

/** Builds one stdio server instance that forwards to `upstream`. */
export function proxyServer(upstream: Upstream, version: string): Server {
  const caps = upstream.first.getServerCapabilities() ?? {};
  const capabilities: ServerCapabilities = {
    ...(caps.tools ? { tools: { listChanged: true } } : {}),
    ...(caps.prompts ? { prompts: { listChanged: true } } : {}),
    ...(caps.resources ? { resources: { listChanged: true } } : {}),
    ...(caps.completions ? { completions: {} } : {}),
  };
  const instructions = upstream.first.getInstructions();
  const server = new Server(
    { name: 'switchboard-gateway', title: 'Switchboard', version },
    { capabilities, ...(instructions ? { instructions } : {}) },
  );
  const forward =
    (method: string) =>
    async (request: { params?: unknown }, ctx: ServerContext): Promise<never> => {
      try {
        return (await upstream.request(
          { method, params: (request.params ?? {}) as Record<string, unknown> },
          { signal: ctx.mcpReq.signal },
          true,
        )) as never;
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
        result = await upstream.request(
          { method: 'tools/call', params },
          {
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
          },
          // A tool call lost mid-way may have run on the old core: it is not sent twice.
          false,
        );
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
