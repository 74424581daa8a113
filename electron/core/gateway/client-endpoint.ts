// Everything one gateway client has open: a stateless 2026-07-28 handler (its own change-event bus, so list
// changes reach only this client's `subscriptions/listen` streams) and its 2025-11-25 sessions (SDK Streamable
// HTTP transport with resumable streams, bound to this client: another token cannot use them). Sessions are
// bounded per client; past the bound the least recently used one is closed.
import { SKILLS_LIST_CHANGED } from '../skills/skill-changes.js';
import { randomUUID } from 'node:crypto';
import {
  createMcpHandler,
  InMemoryServerEventBus,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
  type McpHttpHandler,
  type Server,
} from '@modelcontextprotocol/server';
import { isObject } from '../json.js';
import { BoundedEventStore } from './event-store.js';
import { preferJson } from './json-answer.js';
import { buildSurface, type SurfaceClient, type SurfaceDeps } from './mcp-surface.js';
import { SessionScope } from './session-scope.js';

/** Largest request body the gateway reads (also enforced before anything is read). */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** 2025-11-25 sessions per client. */
export const MAX_SESSIONS_PER_CLIENT = 32;
/** Open `subscriptions/listen` streams per client. */
export const MAX_LISTEN_PER_CLIENT = 32;
/** SSE retry hint for resumable streams (ms). */
const RETRY_MS = 1000;
/**
 * A session counts as live while it has an open stream, or was used this recently and did not hang up its stream
 * since (a client that exits without ending its session closes its notification stream: it leaves the count then).
 */
export const SESSION_LIVE_MS = 5 * 60 * 1000;
/** A session with no open stream and no request for this long is closed (its client has gone). */
export const SESSION_IDLE_MS = 60 * 60 * 1000;

interface LegacySession {
  id: string;
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  scope: SessionScope;
  subscriptions: Map<string, { serverId: string; uri: string }>;
  lastUsed: number;
  /** Open GET (notification) streams. */
  streams: number;
  /** When its last open stream ended (0: never): after its last request, its client went away. */
  hungUpAt: number;
}

/** Whether a 2025-11-25 session counts as live at `now`. */
function isLive(s: LegacySession, now: number): boolean {
  return s.streams > 0 || (s.hungUpAt <= s.lastUsed && now - s.lastUsed < SESSION_LIVE_MS);
}

/** What an endpoint reports back to the gateway. */
export interface EndpointHooks {
  /** A session opened or closed. */
  sessionChanged(client: SurfaceClient, opened: boolean): void;
  /** A closed session's resource subscriptions are released. */
  release(serverId: string, uri: string): void;
  /** The selection of a progressive scope changed. */
  selected(client: SurfaceClient, names: number): void;
}

function jsonResponse(status: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }, { status });
}

/** One client's open MCP surfaces. */
export class ClientEndpoint {
  readonly client: SurfaceClient;
  /** The shared selection of this client's stateless requests. */
  readonly scope = new SessionScope();
  readonly #deps: SurfaceDeps;
  readonly #hooks: EndpointHooks;
  readonly #bus = new InMemoryServerEventBus();
  readonly #modern: McpHttpHandler;
  readonly #sessions = new Map<string, LegacySession>();
  readonly #sweeper: ReturnType<typeof setInterval>;
  #closed = false;

  constructor(deps: SurfaceDeps, client: SurfaceClient, hooks: EndpointHooks) {
    this.#deps = deps;
    this.client = client;
    this.#hooks = hooks;
    this.scope.onChange = () => {
      this.#modern.notify.toolsChanged();
      hooks.selected(client, this.scope.names().length);
    };
    this.#modern = createMcpHandler((ctx) => buildSurface(deps, { client, era: ctx.era, scope: this.scope }), {
      legacy: 'reject',
      bus: this.#bus,
      maxSubscriptions: MAX_LISTEN_PER_CLIENT,
      maxRequestBodySize: MAX_BODY_BYTES,
      onerror: () => undefined,
    });
    this.#sweeper = setInterval(() => this.#sweep(), 5 * 60 * 1000);
    this.#sweeper.unref();
  }

  /** Live sessions: 2025-11-25 sessions with an open stream or recent use, plus open listen streams. */
  get sessions(): number {
    const now = Date.now();
    let live = 0;
    for (const s of this.#sessions.values()) if (isLive(s, now)) live++;
    return live + this.#bus.listenerCount;
  }

  /** Closes sessions whose client has gone (no open stream, unused for an hour). */
  #sweep(): void {
    const now = Date.now();
    for (const s of [...this.#sessions.values()]) if (s.streams === 0 && now - s.lastUsed > SESSION_IDLE_MS) void this.#closeSession(s);
  }

  /** Serves one authenticated request of this client. */
  async fetch(request: Request): Promise<Response> {
    if (this.#closed) return jsonResponse(404, 'This gateway client was removed');
    const sessionId = request.headers.get('mcp-session-id');
    // A request naming one of this client's open sessions is that session's: its transport checks the rest, and
    // the body is read once (classifying it first would clone and parse every call's body twice).
    const open = sessionId === null ? undefined : this.#sessions.get(sessionId);
    if (open) return this.#serveSession(open, request);
    if (!(await isLegacyRequest(request, undefined, { maxRequestBodySize: MAX_BODY_BYTES }))) return this.#modern.fetch(request);
    if (sessionId !== null) return jsonResponse(404, 'Session not found');
    if (request.method !== 'POST') return jsonResponse(400, 'Bad Request: Mcp-Session-Id header is required');
    let body: unknown;
    try {
      body = await request.clone().json();
    } catch {
      return Response.json({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null }, { status: 400 });
    }
    if (!isObject(body) || body.method !== 'initialize') return jsonResponse(400, 'Bad Request: Mcp-Session-Id header is required');
    return this.#open(request);
  }

  async #serveSession(session: LegacySession, request: Request): Promise<Response> {
    session.lastUsed = Date.now();
    const response = await session.transport.handleRequest(request);
    if (request.method === 'POST') return preferJson(request, response);
    if (request.method === 'GET' && response.ok && response.body) {
      // A notification stream stays open until the client goes away (the request's signal aborts then).
      session.streams++;
      const ended = (): void => {
        session.streams = Math.max(0, session.streams - 1);
        if (session.streams === 0) session.hungUpAt = Date.now();
      };
      request.signal.addEventListener('abort', ended, { once: true });
    }
    return response;
  }

  async #open(request: Request): Promise<Response> {
    if (this.#sessions.size >= MAX_SESSIONS_PER_CLIENT) {
      const oldest = [...this.#sessions.values()].sort((a, b) => a.lastUsed - b.lastUsed)[0];
      if (oldest) await this.#closeSession(oldest);
    }
    const scope = new SessionScope();
    const subscriptions = new Map<string, { serverId: string; uri: string }>();
    const server = buildSurface(this.#deps, { client: this.client, era: 'legacy', scope, subscriptions });
    let session: LegacySession | undefined;
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      eventStore: new BoundedEventStore(),
      retryInterval: RETRY_MS,
      maxRequestBodySize: MAX_BODY_BYTES,
      onsessioninitialized: (id) => {
        session = { id, transport, server, scope, subscriptions, lastUsed: Date.now(), streams: 0, hungUpAt: 0 };
        this.#sessions.set(id, session);
        this.#hooks.sessionChanged(this.client, true);
      },
      onsessionclosed: (id) => {
        const s = this.#sessions.get(id);
        if (s) void this.#closeSession(s);
      },
    });
    scope.onChange = () => {
      void server.sendToolListChanged().catch(() => undefined);
      this.#hooks.selected(this.client, scope.names().length);
    };
    transport.onclose = () => {
      if (session) void this.#closeSession(session);
    };
    await server.connect(transport);
    return transport.handleRequest(request);
  }

  async #closeSession(session: LegacySession): Promise<void> {
    if (!this.#sessions.delete(session.id)) return;
    for (const target of session.subscriptions.values()) this.#hooks.release(target.serverId, target.uri);
    session.subscriptions.clear();
    this.#hooks.sessionChanged(this.client, false);
    await session.server.close().catch(() => undefined);
  }

  /** The client's tool list changed. */
  toolsChanged(): void {
    this.#modern.notify.toolsChanged();
    for (const s of this.#sessions.values()) void s.server.sendToolListChanged().catch(() => undefined);
  }

  /** The client's prompt list changed. */
  promptsChanged(): void {
    this.#modern.notify.promptsChanged();
    for (const s of this.#sessions.values()) void s.server.sendPromptListChanged().catch(() => undefined);
  }

  /** The client's resource list changed. */
  resourcesChanged(): void {
    this.#modern.notify.resourcesChanged();
    for (const s of this.#sessions.values()) void s.server.sendResourceListChanged().catch(() => undefined);
  }

  /**
   * The skills served to the client changed. Skill files are resources, so every session gets resources/list_changed
   * (the final skills extension defines no notification of its own); legacy sessions also get the earlier drafts'
   * notifications/skills/list_changed, which a client that does not know it ignores.
   */
  skillsChanged(): void {
    this.resourcesChanged();
    for (const s of this.#sessions.values()) void s.server.notification({ method: SKILLS_LIST_CHANGED }).catch(() => undefined);
  }

  /** A resource changed: sessions subscribed to its wrapped URI, and listen streams that asked for it, are told. */
  resourceUpdated(wrappedUri: string): void {
    this.#modern.notify.resourceUpdated(wrappedUri);
    for (const s of this.#sessions.values()) {
      if (s.subscriptions.has(wrappedUri)) void s.server.sendResourceUpdated({ uri: wrappedUri }).catch(() => undefined);
    }
  }

  /** Closes every session and stream of this client. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#sweeper);
    await Promise.all([...this.#sessions.values()].map((s) => this.#closeSession(s)));
    await this.#modern.close().catch(() => undefined);
  }
}
