// The session controller: one ServerSession per configured server, start-up policy, runtime add / update /
// remove, launch approval before any spawn, and status/log events through the Host's event bus.
import { InMemoryResponseCacheStore, type Client, type Implementation } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/config.js';
import type { LogEntry, ServerIdentity, ServerStatus } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import type { EventBus } from '../event-bus.js';
import type { CredentialStore } from '../ports.js';
import { resolveEnv, resolveHeaders } from '../servers/secrets.js';
import { withLaunchWorkDir } from '../servers/server-folders.js';
import type { TransportFactory } from '../transports/transport-factory.js';
import type { TrafficSink } from '../protocol/traffic-tap.js';
import { transportPipeline, type TransportPipelineParts } from '../transports/pipeline.js';
import type { ProcessSink } from './process-record.js';
import { DiscoveryCache } from './discovery-cache.js';
import { LatestRequest } from './latest-request.js';
import type { SessionEvents } from './session-events.js';
import { ServerSession } from './session.js';
import type { ClientHooks, SessionController, StartupReport } from './session-controller.js';

/** The parts of the Host the sessions use. */
export interface SessionHost {
  /** Where status and log events go. */
  readonly events: EventBus;
  /** The current definitions. */
  configs(): readonly ServerConfig[];
  /** True once the core's shutdown has begun (before any of its steps ran): from then on nothing is connected. */
  closing?(): boolean;
  /** Whether a stdio server's exact launch is approved. */
  isLaunchApproved(config: ServerConfig): boolean;
  /** Why a stdio launch may not start, in the person's words (e.g. naming lost secrets); absent: the generic refusal. */
  launchRefusal?(config: ServerConfig): AppError | undefined;
  /** The check right before a stdio spawn on the environment actually passed (secrets resolved): an error refuses it. */
  verifyLaunch?(config: ServerConfig, env: Readonly<Record<string, string>>): Promise<AppError | undefined>;
  /** Elicitation and resource/prompt notification hooks for each Client (the Host's interaction feature). */
  readonly interaction?: ClientHooks;
  /** Session-level events hub (connected / closed / removed / list changes), when the host has one. */
  readonly sessionEvents?: SessionEvents;
  /** Receives every session's JSON-RPC traffic (the protocol view), when the host records it. */
  readonly trafficSink?: TrafficSink;
  /** Records spawned stdio process groups (so a crash's leftovers can be ended at the next start), when the host keeps one. */
  readonly processes?: ProcessSink;
}

/** What the manager is built from besides the Host. */
export interface SessionManagerOptions {
  /** Where secret env values are read from at spawn time. */
  credentials: CredentialStore;
  /** Opens one fresh transport per lifecycle attempt (the base of the transport pipeline). */
  createTransport: TransportFactory;
  /** The host-wide layers of the transport pipeline (in-process servers, shutdown tracking, authorization). */
  transports?: Pick<TransportPipelineParts, 'inProcess' | 'tracker' | 'auth' | 'telemetry'>;
  /** The login-shell PATH for stdio children (resolved once by the caller). */
  loginPath?: () => Promise<string | undefined>;
  /** JSON file mirroring the discovery cache; memory only when absent. */
  discoveryCacheFile?: string;
  /** A discovery cache built by the caller (it wins over discoveryCacheFile); flushed at shutdown. */
  discoveryCache?: DiscoveryCache;
  /** Client identity sent to servers. */
  clientInfo?: Implementation;
  /** The data folder: a stdio server without a cwd runs in its folder under `server-folders/`. */
  dataDir?: string;
}

/** Owns one live session per configured server. */
export class SessionManager implements SessionController {
  readonly #host: SessionHost;
  readonly #opts: SessionManagerOptions;
  readonly #sessions = new Map<string, ServerSession>();
  readonly #responseCaches = new Map<string, InMemoryResponseCacheStore>();
  readonly #cache: DiscoveryCache;
  readonly #since = Date.now();
  /** The person's connect / disconnect / restart requests, one at a time per server; the latest wins. */
  readonly #requests = new LatestRequest<ServerStatus>();
  /** Set by shutdown(): the manager never connects again, whatever the host says. */
  #stopped = false;

  constructor(host: SessionHost, opts: SessionManagerOptions) {
    this.#host = host;
    this.#opts = opts;
    this.#cache = opts.discoveryCache ?? new DiscoveryCache(opts.discoveryCacheFile !== undefined ? { file: opts.discoveryCacheFile } : {});
    for (const config of host.configs()) this.#sessions.set(config.id, this.#newSession(config));
  }

  /** Registers a server added at runtime and connects it per its startup policy. */
  register(config: ServerConfig): void {
    const existing = this.#sessions.get(config.id);
    if (existing) {
      this.update(config);
      return;
    }
    const session = this.#newSession(config);
    this.#sessions.set(config.id, session);
    if (config.enabled && config.startup !== 'manual') this.#background(session);
  }

  /**
   * Replaces a definition; a connected or connecting session reconnects with it (approval re-checked). New secret
   * values leave the stored definition as it was, so the caller says so with `secretsChanged`.
   */
  update(config: ServerConfig, opts: { secretsChanged?: boolean } = {}): void {
    const session = this.#sessions.get(config.id);
    if (!session) {
      this.register(config);
      return;
    }
    const previous = session.config;
    const changed = opts.secretsChanged === true || JSON.stringify(previous) !== JSON.stringify(config);
    const wasActive = session.active;
    const awaitedApproval = session.status().error?.code === 'approval_required';
    session.setConfig(config);
    if (!config.enabled) {
      if (wasActive || session.status().state !== 'disconnected') void session.close('Disabled');
      else session.refreshGate();
      return;
    }
    if (wasActive) {
      if (changed) void session.close('Reconnecting with the new settings').then(() => this.#background(session));
      return;
    }
    if (config.startup !== 'manual' && (changed || awaitedApproval)) {
      this.#background(session);
      return;
    }
    session.refreshGate();
  }

  /** Forgets a server: cancels an in-flight connect and releases its session. */
  async remove(id: string): Promise<void> {
    const session = this.#sessions.get(id);
    if (!session) return;
    this.#sessions.delete(id);
    this.#cache.delete(id);
    this.#responseCaches.delete(id);
    session.retire(new AppError('not_found', `No server with id "${id}"`, { serverId: id }));
    await session.close('Removed');
    this.#host.sessionEvents?.emit({ type: 'removed', id });
  }

  /** Status without connecting. */
  status(id: string): ServerStatus {
    return this.#sessions.get(id)?.status() ?? { state: 'disconnected', since: this.#since, failures: 0 };
  }

  /** Identity captured at connect, while connected. */
  identity(id: string): ServerIdentity | undefined {
    return this.#sessions.get(id)?.identity();
  }

  /** Connects now (a user action: ignores backoff); resolves with the resulting status, errors included. */
  connect(id: string): Promise<ServerStatus> {
    const session = this.#session(id);
    return this.#requests.run(id, async () => {
      await session.ensure(true).catch(() => undefined);
      return session.status();
    });
  }

  /** Drops the session and keeps the server registered. */
  disconnect(id: string): Promise<ServerStatus> {
    const session = this.#session(id);
    return this.#requests.run(id, async () => {
      await session.close('Disconnected by the user');
      return session.status();
    });
  }

  /** Disconnects, then connects (racing restarts and connects of one server run in turn; the latest wins). */
  restart(id: string): Promise<ServerStatus> {
    const session = this.#session(id);
    return this.#requests.run(id, async () => {
      // Shutdown releases the session itself; a restart then would only be refused after closing it.
      if (this.#shuttingDown(id)) {
        await session.ensure(true).catch(() => undefined);
        return session.status();
      }
      await session.close('Restarting');
      await session.ensure(true).catch(() => undefined);
      return session.status();
    });
  }

  /** Recent log lines. */
  logs(id: string): LogEntry[] {
    return this.#sessions.get(id)?.logs() ?? [];
  }

  /** Adds a protocol line to a server's log (features other than the session, e.g. events). */
  note(id: string, level: 'info' | 'warning', text: string): void {
    this.#sessions.get(id)?.log('protocol', level, text);
  }

  /**
   * The connected SDK client for catalog and tool calls, connecting first when needed (automatic use: respects
   * the backoff). Rejects with the AppError that explains why it is not available.
   */
  client(id: string): Promise<Client> {
    return this.#session(id).ensure(false);
  }

  /** The connected SDK client of a server now, or undefined (then `client` connects or explains why not). */
  connectedClient(id: string): Client | undefined {
    return this.#sessions.get(id)?.connected();
  }

  /**
   * Connects every enabled eager and background server concurrently; manual ones are skipped. Eager and
   * required servers are awaited; background ones connect on their own. Reports required failures.
   */
  async startAll(): Promise<StartupReport> {
    for (const config of this.#host.configs()) {
      if (!this.#sessions.has(config.id)) this.#sessions.set(config.id, this.#newSession(config));
    }
    const awaited: ServerSession[] = [];
    for (const session of this.#sessions.values()) {
      const c = session.config;
      if (!c.enabled || c.startup === 'manual') continue;
      if (c.startup === 'background' && !c.required) this.#background(session);
      else awaited.push(session);
    }
    await Promise.allSettled(awaited.map((s) => s.ensure(true)));
    const requiredFailures = awaited
      .filter((s) => s.config.required && s.status().state !== 'connected')
      .map((s) => ({ id: s.id, message: s.status().error?.message ?? 'did not connect' }));
    return { requiredFailures };
  }

  /**
   * Releases every session. From this call on (and from the moment the host says it is closing) every connect, call
   * and restart is refused with `shutting_down`, so nothing started during or after shutdown outlives it.
   */
  async shutdown(): Promise<void> {
    this.#stopped = true;
    await Promise.allSettled([...this.#sessions.values()].map((s) => s.close('Shutting down')));
    await this.#cache.flush();
  }

  /** Why nothing may connect now: the core is shutting down. */
  #shuttingDown(id: string): AppError | undefined {
    if (!this.#stopped && this.#host.closing?.() !== true) return undefined;
    return new AppError('shutting_down', 'Switchboard is shutting down, so it does not start this server', { serverId: id });
  }

  #session(id: string): ServerSession {
    const session = this.#sessions.get(id);
    if (!session) throw new AppError('not_found', `No server with id "${id}"`, { serverId: id });
    return session;
  }

  /** Connects without awaiting; the outcome lands in the status. */
  #background(session: ServerSession): void {
    session.ensure(true).catch(() => undefined);
  }

  #newSession(config: ServerConfig): ServerSession {
    const events = this.#host.events;
    const dataDir = this.#opts.dataDir;
    const pipeline = transportPipeline(this.#opts.createTransport, {
      ...this.#opts.transports,
      ...(this.#host.processes ? { processes: this.#host.processes } : {}),
      ...(this.#host.trafficSink ? { traffic: this.#host.trafficSink } : {}),
    });
    return new ServerSession(config, {
      // The last word before a spawn: a connect that began before shutdown opens no transport (no fallback, no retry) after.
      factory: (ctx) => {
        const refusal = this.#shuttingDown(config.id);
        if (refusal) throw refusal;
        return pipeline(ctx);
      },
      cache: this.#cache,
      clientInfo: this.#opts.clientInfo ?? { name: 'switchboard', version: '0.0.0' },
      resolveEnv: (c) => resolveEnv(this.#opts.credentials, c),
      resolveHeaders: (c) => resolveHeaders(this.#opts.credentials, c),
      loginPath: this.#opts.loginPath ?? (() => Promise.resolve(undefined)),
      ...(dataDir !== undefined ? { launchConfig: (c: ServerConfig) => withLaunchWorkDir(dataDir, c) } : {}),
      gate: (c) => this.#gate(c),
      refuse: () => this.#shuttingDown(config.id),
      verifyLaunch: (c, env) => this.#host.verifyLaunch?.(c, env) ?? Promise.resolve(undefined),
      onStatus: (id, status) => events.emit('servers.status', { id, status }),
      onLog: (id, entry) => events.emit('servers.log', { id, entry }),
      responseCache: this.#responseCache(config.id),
      ...(this.#host.interaction ? { hooks: this.#host.interaction } : {}),
      ...(this.#host.sessionEvents ? { sessionEvents: this.#host.sessionEvents } : {}),
    });
  }

  /** The server's SDK response cache (SEP-2549 ttlMs/cacheScope); it outlives reconnects. */
  #responseCache(id: string): InMemoryResponseCacheStore {
    let store = this.#responseCaches.get(id);
    if (!store) {
      store = new InMemoryResponseCacheStore();
      this.#responseCaches.set(id, store);
    }
    return store;
  }

  /** Empties a server's response cache so the next list or read goes to the server (explicit refresh). */
  clearResponseCache(id: string): void {
    this.#responseCaches.get(id)?.clear();
  }

  /** A stdio server is spawned only once its exact launch is approved. */
  #gate(config: ServerConfig): AppError | undefined {
    if (config.transport.type !== 'stdio' || this.#host.isLaunchApproved(config)) return undefined;
    const refusal = this.#host.launchRefusal?.(config);
    if (refusal) return refusal;
    return new AppError('approval_required', `Approve the exact command before ${config.name} can start: ${config.transport.command}`, {
      serverId: config.id,
    });
  }
}
