// One server's connection state machine: connect (serialized, shared by racing callers), status, backoff after
// repeated failures, the live client, and what happens when the session closes underneath us.
import type { Client, Implementation, ResponseCacheStore } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/config.js';
import { applyPatch, type Patch } from '../../../shared/optional-fields.js';
import type { LogEntry, ServerIdentity, ServerStatus } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { NOTIFICATION_BUDGET, notificationBudgetStage, TokenBucket } from '../ingress/notification-budget.js';
import type { OpenedTransport, TransportFactory } from '../transports/transport-factory.js';
import { backoffDelay } from './backoff.js';
import { ChangeStream } from './change-stream.js';
import { cancelledError } from './deadline.js';
import { configFingerprint, type DiscoveryCache } from './discovery-cache.js';
import { diagnose, isAuthFailure } from './doctor.js';
import { captureIdentity } from './identity.js';
import { alreadyLogged, establish } from './lifecycle.js';
import { LogRing } from './log-ring.js';
import type { ClientHooks } from './session-controller.js';
import type { SessionEvents } from './session-events.js';

/** What a session needs from its manager. */
export interface SessionDeps {
  /** Opens transports. */
  factory: TransportFactory;
  /** Era verdicts from earlier connects. */
  cache: DiscoveryCache;
  /** Client identity sent to servers. */
  clientInfo: Implementation;
  /** Resolves a stdio server's env (secrets read from the credential store). */
  resolveEnv: (config: ServerConfig) => Promise<Record<string, string>>;
  /** The definition with secret header values read from the credential store (HTTP/SSE), for the transport only. */
  resolveHeaders?: (config: ServerConfig) => Promise<ServerConfig>;
  /** The login-shell PATH for stdio children. */
  loginPath: () => Promise<string | undefined>;
  /** The definition as launched: a stdio server without a cwd gets its own folder (created on the way). */
  launchConfig?: (config: ServerConfig) => Promise<ServerConfig>;
  /** Why a connect may not start (e.g. launch not approved), or undefined. */
  gate: (config: ServerConfig) => AppError | undefined;
  /** Why no connect may start at all any more (the core is shutting down), or undefined; checked before the approval gate. */
  refuse?: () => AppError | undefined;
  /** The last check before a stdio spawn, on the resolved environment (secret values included). */
  verifyLaunch?: (config: ServerConfig, env: Readonly<Record<string, string>>) => Promise<AppError | undefined>;
  /** Receives every status change. */
  onStatus: (id: string, status: ServerStatus) => void;
  /** Receives every log line. */
  onLog: (id: string, entry: LogEntry) => void;
  /** Per-Client hooks of the interaction feature. */
  hooks?: ClientHooks;
  /** Session-level events for the catalog, calls and resources (connected, closed, list changes). */
  sessionEvents?: SessionEvents;
  /** The server's response cache, kept across reconnects. */
  responseCache?: ResponseCacheStore;
  /** Clock (tests). */
  now?: () => number;
}

interface Live {
  client: Client;
  opened: OpenedTransport;
  /** The 2026-07-28 change stream (modern servers that advertise listChanged). */
  changes: ChangeStream | undefined;
  closing: boolean;
  lastError?: Error;
}

/** How often dropped notifications are reported (log line and status) at most. */
export const DROP_REPORT_MS = 1000;
/** Protocol warnings logged per server: a burst of this many, then this many per second; the rest are counted. */
export const WARNING_BUDGET = { burst: 20, perSecond: 5 } as const;

interface Inflight {
  promise: Promise<Client>;
  abort: AbortController;
  gen: number;
}

/** The session of one configured server. */
export class ServerSession {
  readonly id: string;
  readonly #deps: SessionDeps;
  readonly #logs = new LogRing();
  readonly #now: () => number;
  #config: ServerConfig;
  #status: ServerStatus;
  #identity: ServerIdentity | undefined;
  #live: Live | undefined;
  #inflight: Inflight | undefined;
  #gen = 0;
  /** The release under way, if any: no connect starts (and no client is handed out) until it is over. */
  #closing: Promise<void> | undefined;
  /** Set once the server is removed: why nothing connects this session again. */
  #retired: AppError | undefined;
  /** Logging and progress notifications draw on this bucket, across reconnects. */
  readonly #bucket: TokenBucket;
  #dropped = 0;
  #droppedUnreported = 0;
  #dropReport: ReturnType<typeof setTimeout> | undefined;
  /** Protocol warnings (e.g. progress for unknown tokens, sent in a flood) reach the log at this rate at most. */
  readonly #warnings = new TokenBucket(WARNING_BUDGET.burst, WARNING_BUDGET.perSecond);
  #warningsSuppressed = 0;
  #warningReport: ReturnType<typeof setTimeout> | undefined;

  constructor(config: ServerConfig, deps: SessionDeps) {
    this.id = config.id;
    this.#config = config;
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
    this.#bucket = new TokenBucket(NOTIFICATION_BUDGET.burst, NOTIFICATION_BUDGET.perSecond);
    const gate = config.enabled ? deps.gate(config) : undefined;
    this.#status = { state: 'disconnected', since: this.#now(), failures: 0, ...(gate ? { error: gate.toData() } : {}) };
  }

  /** The current definition. */
  get config(): ServerConfig {
    return this.#config;
  }

  /** Replaces the definition (takes effect on the next connect). */
  setConfig(config: ServerConfig): void {
    this.#config = config;
  }

  /** Current status (a copy). */
  status(): ServerStatus {
    return { ...this.#status };
  }

  /** Identity captured at the last successful connect, while connected. */
  identity(): ServerIdentity | undefined {
    return this.#identity;
  }

  /** Recent log lines. */
  logs(): LogEntry[] {
    return this.#logs.entries();
  }

  /** True while connected or connecting. */
  get active(): boolean {
    return this.#inflight !== undefined || (this.#live !== undefined && !this.#live.closing);
  }

  /** Records a log line and announces it. */
  log(source: LogEntry['source'], level: LogEntry['level'], text: string): void {
    const entry = this.#logs.push(source, level, text, this.#now());
    this.#deps.onLog(this.id, entry);
  }

  /** Re-checks the approval gate while idle, so the status shows (or stops showing) approval_required. */
  refreshGate(): void {
    if (this.active) return;
    const gate = this.#config.enabled ? this.#deps.gate(this.#config) : undefined;
    if (gate) this.#set({ state: 'disconnected', error: gate.toData(), retryAt: undefined });
    else if (this.#status.error?.code === 'approval_required') this.#set({ state: 'disconnected', error: undefined });
  }

  /** The client when connected now and not closing: what `ensure` would resolve with at once. */
  connected(): Client | undefined {
    if (this.#retired || this.#closing || !this.#live || this.#live.closing) return undefined;
    return this.#live.client;
  }

  /**
   * Returns the connected client, connecting first when needed. Racing callers share one attempt. `explicit`
   * (a user action) ignores the backoff; automatic uses wait for `retryAt`.
   */
  ensure(explicit: boolean): Promise<Client> {
    if (this.#retired) return Promise.reject(this.#retired);
    // A connect started while a release runs would be marked current and then reported "disconnected" by it.
    if (this.#closing) return this.#closing.then(() => this.ensure(explicit));
    if (this.#live && !this.#live.closing) return Promise.resolve(this.#live.client);
    if (this.#inflight) return this.#inflight.promise;
    // A session still up while shutdown stops the front doors keeps serving (its calls are cancelled in turn); one that
    // would have to connect does not. Not a failure of the server: said in the status, no backoff.
    const refusal = this.#deps.refuse?.();
    if (refusal) {
      this.#set({ state: 'disconnected', error: refusal.toData(), retryAt: undefined });
      return Promise.reject(refusal);
    }
    const config = this.#config;
    if (!config.enabled)
      return Promise.reject(new AppError('invalid_request', `${config.name} is disabled; enable it to connect`, { serverId: this.id }));
    const gate = this.#deps.gate(config);
    if (gate) {
      this.#set({ state: 'disconnected', error: gate.toData(), retryAt: undefined });
      return Promise.reject(gate);
    }
    const retryAt = this.#status.retryAt;
    if (!explicit && retryAt !== undefined && this.#now() < retryAt) {
      const last = this.#status.error;
      const waitSecs = Math.ceil((retryAt - this.#now()) / 1000);
      return Promise.reject(
        new AppError(
          last?.code ?? 'connect_failed',
          `${last?.message ?? 'The last connection attempt failed'} (next automatic attempt in ${waitSecs} s)`,
          {
            serverId: this.id,
            ...(last?.evidence ? { evidence: last.evidence } : {}),
          },
        ),
      );
    }
    const gen = ++this.#gen;
    const abort = new AbortController();
    this.#set({ state: 'connecting', error: undefined, retryAt: undefined });
    const promise = this.#connect(config, gen, abort.signal);
    const inflight: Inflight = { promise, abort, gen };
    this.#inflight = inflight;
    promise.then(
      () => this.#clearInflight(inflight),
      () => this.#clearInflight(inflight),
    );
    return promise;
  }

  /** Marks the session as finished (its server was removed): later connects are refused with `why`. */
  retire(why: AppError): void {
    this.#retired = why;
  }

  /**
   * Cancels an in-flight connect, closes the live session and reports `disconnected`. Closes run in turn, and
   * connects wait for them, so a session being released is never the current one.
   */
  close(reason: string): Promise<void> {
    this.#gen++;
    const inflight = this.#inflight;
    this.#inflight = undefined;
    const live = this.#live;
    this.#live = undefined;
    live?.changes?.close();
    const done = this.#release(reason, inflight, live, this.#closing);
    this.#closing = done;
    void done.then(() => {
      if (this.#closing === done) this.#closing = undefined;
    });
    return done;
  }

  async #release(
    reason: string,
    inflight: Inflight | undefined,
    live: Live | undefined,
    previous: Promise<void> | undefined,
  ): Promise<void> {
    await previous;
    if (inflight) {
      inflight.abort.abort(cancelledError(this.id, reason));
      await inflight.promise.catch(() => undefined);
    }
    if (live) {
      live.closing = true;
      this.log('lifecycle', 'info', reason);
      await live.client.close().catch(() => undefined);
      await live.opened.release().catch(() => undefined);
      this.#deps.hooks?.closed(this.id);
      this.#deps.sessionEvents?.emit({ type: 'closed', id: this.id });
    }
    this.#identity = undefined;
    this.#set({ state: 'disconnected', error: undefined, retryAt: undefined, protocolVersion: undefined, lifecycle: undefined });
    this.refreshGate();
  }

  /** Logs a protocol warning within WARNING_BUDGET; the ones over it are counted into one line a second later. */
  #warnLimited(text: string): void {
    if (this.#warnings.take()) {
      this.log('protocol', 'warning', text);
      return;
    }
    this.#warningsSuppressed++;
    this.#warningReport ??= setTimeout(() => {
      this.#warningReport = undefined;
      const n = this.#warningsSuppressed;
      this.#warningsSuppressed = 0;
      this.log('protocol', 'warning', `${n} more protocol warning${n === 1 ? '' : 's'} from this server were not logged (too many)`);
    }, DROP_REPORT_MS);
    this.#warningReport.unref?.();
  }

  /** Counts a notification dropped over the budget; the count reaches the log and the status once a second at most. */
  #noteDropped(): void {
    this.#live?.opened.pace?.();
    this.#dropped++;
    this.#droppedUnreported++;
    this.#dropReport ??= setTimeout(() => {
      this.#dropReport = undefined;
      const n = this.#droppedUnreported;
      this.#droppedUnreported = 0;
      this.log(
        'protocol',
        'warning',
        `${n} notification${n === 1 ? '' : 's'} dropped from this server (logging and progress are limited to ${NOTIFICATION_BUDGET.perSecond} per second); ${this.#dropped} in all`,
      );
      this.#set({ droppedNotifications: this.#dropped });
    }, DROP_REPORT_MS);
    this.#dropReport.unref?.();
  }

  #clearInflight(inflight: Inflight): void {
    if (this.#inflight === inflight) this.#inflight = undefined;
  }

  async #connect(config: ServerConfig, gen: number, signal: AbortSignal): Promise<Client> {
    const stale = (): boolean => gen !== this.#gen || signal.aborted;
    const t = config.transport;
    this.log('lifecycle', 'info', `Connecting (${t.type}, lifecycle ${config.lifecycle})`);
    let established;
    let changes: ChangeStream | undefined;
    try {
      const env = await this.#deps.resolveEnv(config);
      // The approval covers exactly what is spawned: checked here on the values actually passed.
      const refusal = t.type === 'stdio' ? await this.#deps.verifyLaunch?.(config, env) : undefined;
      if (refusal) throw refusal;
      const loginPath = t.type === 'stdio' ? await this.#deps.loginPath() : undefined;
      if (stale()) throw cancelledError(this.id);
      const fingerprint = configFingerprint(config);
      const prior = this.#deps.cache.get(this.id, fingerprint);
      const headed = this.#deps.resolveHeaders !== undefined ? await this.#deps.resolveHeaders(config) : config;
      const live = t.type === 'stdio' && this.#deps.launchConfig !== undefined ? await this.#deps.launchConfig(headed) : headed;
      if (stale()) throw cancelledError(this.id);
      established = await establish({
        config: live,
        env,
        ...(loginPath !== undefined ? { loginPath } : {}),
        factory: this.#deps.factory,
        log: (source, level, text) => this.log(source, level, text),
        ...(prior ? { prior } : {}),
        onPriorFailed: () => this.#deps.cache.delete(this.id),
        clientInfo: this.#deps.clientInfo,
        ...(this.#deps.responseCache ? { responseCacheStore: this.#deps.responseCache } : {}),
        signal,
        ...(this.#deps.hooks ? { prepareClient: (c: Client) => this.#deps.hooks?.prepare(c, config) } : {}),
        ingress: [notificationBudgetStage({ bucket: this.#bucket, onDropped: () => this.#noteDropped() })],
        onListChanged: (kind) => {
          if (gen !== this.#gen) return;
          const type = kind === 'tools' ? 'toolsListChanged' : kind === 'prompts' ? 'promptsListChanged' : 'resourcesListChanged';
          this.log('protocol', 'info', `The server's ${kind} list changed`);
          this.#deps.sessionEvents?.emit({ type, id: this.id });
        },
      });
      if (!stale()) {
        // One change stream per session; its first open is awaited so the first listings cannot miss a change.
        changes = ChangeStream.for({
          id: this.id,
          client: established.client,
          capabilities: established.client.getServerCapabilities(),
          sessionEvents: this.#deps.sessionEvents,
          log: (level, text) => this.log('protocol', level, text),
          ackTimeoutMs: config.timeouts.connectSecs * 1000,
        });
        await changes?.start(signal);
      }
      if (stale()) {
        changes?.close();
        await established.client.close().catch(() => undefined);
        await established.opened.release().catch(() => undefined);
        throw cancelledError(this.id);
      }
      if (established.verdict) this.#deps.cache.set(this.id, fingerprint, established.verdict);
    } catch (err) {
      const error =
        err instanceof AppError && err.serverId === this.id ? err : diagnose(err, { config, phase: 'setup', mode: config.lifecycle });
      if (!stale() && error.code !== 'cancelled' && error.code !== 'shutting_down') this.#fail(error);
      throw error;
    }

    const { client, opened } = established;
    const live: Live = { client, opened, changes, closing: false };
    this.#live?.changes?.close();
    this.#live = live;
    client.onerror = (error) => {
      live.lastError = error;
      if (!alreadyLogged(error)) this.#warnLimited(error.message);
    };
    client.onclose = () => this.#onClosed(live);
    this.#identity = captureIdentity(client, config);
    this.log('lifecycle', 'info', `Connected with ${established.protocolVersion} (${established.lifecycle})`);
    this.#set({
      state: 'connected',
      error: undefined,
      failures: 0,
      retryAt: undefined,
      protocolVersion: established.protocolVersion,
      lifecycle: established.lifecycle,
    });
    this.#deps.hooks?.connected(this.id, client);
    this.#deps.sessionEvents?.emit({ type: 'connected', id: this.id, client, protocolVersion: established.protocolVersion });
    return client;
  }

  #fail(error: AppError): void {
    if (error.code === 'approval_required') {
      // Not a failure of the server: it waits for the user, without backoff.
      this.#set({ state: 'disconnected', error: error.toData(), retryAt: undefined, protocolVersion: undefined, lifecycle: undefined });
      return;
    }
    if (isAuthFailure(error)) {
      this.#set({ state: 'needs-auth', error: error.toData(), retryAt: undefined, protocolVersion: undefined, lifecycle: undefined });
      return;
    }
    const failures = this.#status.failures + 1;
    this.#set({
      state: 'failed',
      error: error.toData(),
      failures,
      retryAt: this.#now() + backoffDelay(failures),
      protocolVersion: undefined,
      lifecycle: undefined,
    });
  }

  /** The session ended without us asking (child exited, connection dropped). */
  #onClosed(live: Live): void {
    if (live.closing || this.#live !== live) return;
    this.#live = undefined;
    live.changes?.close();
    this.#identity = undefined;
    this.#deps.hooks?.closed(this.id);
    this.#deps.sessionEvents?.emit({ type: 'closed', id: this.id });
    void live.opened.release().catch(() => undefined);
    const evidence = live.opened.diagnostics.evidence();
    const last = live.lastError;
    const error =
      last instanceof AppError && (last.code === 'process_exited' || last.code === 'connection_closed')
        ? diagnose(last, { config: this.#config, phase: 'session', mode: this.#config.lifecycle, transportEvidence: evidence })
        : diagnose(new AppError('connection_closed', 'The connection closed'), {
            config: this.#config,
            phase: 'session',
            mode: this.#config.lifecycle,
            transportEvidence: evidence,
          });
    this.log('lifecycle', 'warning', `Session closed: ${error.message}`);
    if (error.evidence?.outputClosed) {
      // A server that closed its output while running is broken, not merely gone: failed, with backoff.
      this.#fail(error);
      return;
    }
    this.#set({
      state: 'disconnected',
      error: error.toData(),
      protocolVersion: undefined,
      lifecycle: undefined,
    });
  }

  #set(patch: Patch<ServerStatus>): void {
    const next = applyPatch(this.#status, patch);
    if (next.state !== this.#status.state) next.since = this.#now();
    if (JSON.stringify(next) === JSON.stringify(this.#status)) return;
    this.#status = next;
    this.#deps.onStatus(this.id, { ...next });
  }
}
