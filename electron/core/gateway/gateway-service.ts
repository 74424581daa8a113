// The gateway: serves Switchboard's connections to the person's other MCP apps as one MCP server on
// 127.0.0.1 (off by default). This class composes the parts: the settings file, client tokens (digests in the
// credential store), the HTTP front, one endpoint per client, the endpoint file for the stdio entry point, the
// ask broker, the activity feed and the fan-out of live changes. It never adds, edits, approves or removes a
// server: it only reads the catalog and calls through the same call service as the UI.
import type { ServerConfig } from '../../../shared/config.js';
import type { ToolRoute } from '../catalog/catalog-port.js';
import type { PresencePort } from '../presence.js';
import type { ProblemPort } from '../problems.js';
import type { AppNotice } from '../../../shared/contract.js';
import type {
  GatewayActivity,
  GatewayClientView,
  GatewayProfile,
  GatewayRequestArguments,
  GatewaySetupArgs,
  GatewaySetupPreview,
  GatewaySetupResult,
  GatewayStatus,
} from '../../../shared/domains/gateway.js';
import { AppError } from '../../../shared/errors.js';
import { missingSecretsMessage } from './result-convert.js';
import type { CallService } from '../calls/call-service.js';
import type { EventBus } from '../event-bus.js';
import type { CredentialStore } from '../ports.js';
import type { Interaction } from '../resources/interaction.js';
import type { SessionController } from '../sessions/session-controller.js';
import { sanitizeText, truncate } from '../text.js';
import { ActivityFeed } from './activity.js';
import { AskBroker } from './ask-broker.js';
import { ClientEndpoint } from './client-endpoint.js';
import {
  digestMatches,
  launchTokenMatches,
  newClientId,
  newClientToken,
  newLaunchKey,
  parseBearer,
  tokenAccount,
  tokenDigest,
} from './client-tokens.js';
import { endpointPath, removeEndpoint, removeEndpointSync, writeEndpoint } from './endpoint-file.js';
import { Forwarding } from './forwarding.js';
import { GatewayCalls } from './gateway-calls.js';
import { GatewayStore, MAX_TRUSTED_TOOLS, type StoredClient } from './gateway-store.js';
import type { AdmissionLimits } from './connection-admission.js';
import { startFront, type Front, type FrontDoor, type FrontRefusal, type FrontTarget } from './http-front.js';
import type { SurfaceClient, SurfaceDeps } from './mcp-surface.js';
import { wrapUri } from './namespacing.js';
import { normalizeProfile, ProfileView } from './profile.js';
import { setupInstall, setupPreview, type GatewayLauncher } from './setup-help.js';
import { SkillListing, type GatewaySkills } from './skill-listing.js';
import { GatewayTaskRelay, type TaskByHand } from './tasks/task-relay.js';
import { ToolListing, type GatewayCatalog } from './tool-listing.js';

/** The parts of the Host the gateway uses (read lazily: the Host builds them in its constructor). */
export interface GatewayHost {
  readonly events: EventBus;
  /** Whether the person can see a Switchboard window (asks are refused at once without one). */
  readonly presence: PresencePort;
  readonly credentials: CredentialStore;
  readonly sessions: SessionController;
  readonly catalog: GatewayCatalog;
  readonly calls: CallService;
  readonly interaction: Interaction;
  /** The core's skills client (absent: no skills are served). */
  readonly skills?: GatewaySkills;
  configs(): readonly ServerConfig[];
  config(id: string): ServerConfig;
  isLaunchApproved(config: ServerConfig): boolean;
  /** Why a stdio launch may not start now (a refusal for lost secrets lists them in its evidence); absent: not asked. */
  launchRefusal?(config: ServerConfig): AppError | undefined;
  /** Raises a notice for the person. */
  notify(notice: AppNotice): void;
  /** Who answers a relayed task's input requests that its client cannot take (absent: they are refused). */
  readonly taskInput?: TaskByHand;
  /** The webhook relay servers (never served, refused in a profile); absent: none. */
  relayServers?(): ReadonlySet<string>;
  /** Where the gateway's store and file failures go. */
  readonly problems: ProblemPort;
}

/** How the gateway is built. */
export interface GatewayOptions {
  dataDir: string;
  version: string;
  /** How other apps start the stdio entry point (absent: the `switchboard-gateway` command on PATH). */
  launcher?: () => GatewayLauncher | undefined;
  /** Every refused HTTP request (tests, diagnostics). */
  onRefused?: (reason: FrontRefusal) => void;
  /** The HTTP front's connection deadlines and caps (defaults: DEFAULT_ADMISSION). */
  admission?: Partial<AdmissionLimits>;
  /** The shell's listener on the gateway's port, which outlives this core (absent: the front listens on it itself). */
  door?: FrontDoor;
  /** Wraps each authenticated request (tracing); absent: requests go straight to the client's endpoint. */
  traceRequest?: (clientId: string, request: Request, handle: () => Promise<Response>) => Promise<Response>;
}

/** The gateway of one Host. */
export class Gateway {
  readonly #host: GatewayHost;
  readonly #opts: GatewayOptions;
  readonly #store: GatewayStore;
  readonly asks: AskBroker;
  readonly #activity: ActivityFeed;
  readonly #listing: ToolListing;
  readonly #calls: GatewayCalls;
  readonly #forwarding: Forwarding;
  readonly #tasks: GatewayTaskRelay;
  readonly #surface: SurfaceDeps;
  readonly #endpoints = new Map<string, ClientEndpoint>();
  readonly #digests = new Map<string, string>();
  readonly #views = new WeakMap<GatewayProfile, { configs: readonly ServerConfig[]; relays: string; view: ProfileView }>();
  readonly #lastState = new Map<string, string>();
  #front: Front | undefined;
  #launchKey: string | undefined;
  #error: string | undefined;
  #digestsLoaded = false;
  #loadingDigests: Promise<void> | undefined;
  /** Clients whose stored digest could not be read (as opposed to not kept), for the row's wording. */
  readonly #unreadable = new Set<string>();
  #starting: Promise<void> | undefined;

  constructor(host: GatewayHost, opts: GatewayOptions) {
    this.#host = host;
    this.#opts = opts;
    this.#store = new GatewayStore(opts.dataDir);
    if (this.#store.loadNotice) host.notify({ id: 'gateway-settings-corrupt', level: 'error', message: this.#store.loadNotice });
    this.asks = new AskBroker(host.events, host.presence);
    this.#activity = new ActivityFeed(host.events, (id, at, summary) => this.#store.touch(id, { at, summary }));
    this.#listing = new ToolListing(host.catalog);
    this.#calls = new GatewayCalls({
      catalog: host.catalog,
      calls: host.calls,
      config: (id) => host.config(id),
      missingSecrets: (config) => this.#missingSecrets(config),
      asks: this.asks,
      trusted: (clientId, route) => this.#trusted(clientId, route),
      trust: (clientId, route) =>
        this.#setTrust(clientId, route.localName, route.fingerprint).catch((err: unknown) =>
          host.notify({
            id: `gateway-trust-${clientId}`,
            level: 'warning',
            message: `Switchboard could not remember "always allow ${route.localName}" for a gateway client (${err instanceof Error ? err.message : 'unknown error'}); it will ask again next time.`,
          }),
        ),
      dialog: async (serverId, params, signal) => {
        const answer = await host.interaction.elicitation.request(serverId, params as never, signal);
        return { action: answer.action, ...(answer.content ? { content: answer.content as Record<string, unknown> } : {}) };
      },
      activity: (entry) => this.#activity.add(entry),
    });
    this.#forwarding = new Forwarding({
      config: (id) => host.config(id),
      connected: (id) => host.sessions.status(id).state === 'connected',
      client: (id) => host.sessions.client(id),
      subscribe: (id, uri) => host.interaction.resources.subscribe(id, uri),
      unsubscribe: (id, uri) => host.interaction.resources.unsubscribe(id, uri),
      subscriptions: (id) => host.interaction.resources.subscriptions(id),
    });
    this.#tasks = new GatewayTaskRelay({
      client: (id) => host.sessions.client(id),
      config: (id) => host.config(id),
      ...(host.taskInput ? { byHand: host.taskInput } : {}),
    });
    this.#surface = {
      version: opts.version,
      catalog: host.catalog,
      listing: this.#listing,
      calls: this.#calls,
      forwarding: this.#forwarding,
      tasks: this.#tasks,
      ...(host.skills === undefined
        ? {}
        : {
            skills: new SkillListing(host.skills, (id) => host.sessions.status(id).state === 'connected' && host.config(id).resources),
          }),
      view: (clientId) => this.#view(clientId),
      serverNote: (id) => this.#serverNote(id),
      serverName: (id) => this.#serverName(id),
    };
    host.events.subscribe((event, payload) => this.#onEvent(event, payload), { internal: true });
    // A server's skills changed (a listing differs, its notification, an approval): the clients that see it are told.
    host.skills?.onChanged?.((id) => {
      if (this.#endpoints.size > 0) this.#each(id, (e) => e.skillsChanged());
    });
  }

  // ------------------------------------------------------------------ lifecycle

  /** At start-up: turns the gateway on again when it was on. A taken port is reported, not fatal. */
  async resume(): Promise<void> {
    if (!this.#store.settings.enabled) {
      // A door a crashed predecessor held open (the gateway was turned off just before) is not left answering.
      await this.#opts.door?.close().catch(() => undefined);
      return;
    }
    try {
      await this.#start(this.#store.settings.port ?? 0);
    } catch (err) {
      this.#error = err instanceof AppError ? err.message : 'The gateway could not start';
      await this.#opts.door?.close().catch(() => undefined);
      this.#host.notify({ id: 'gateway-start-failed', level: 'warning', message: `The gateway is on but could not start: ${this.#error}` });
    }
  }

  /** Shutdown: closes everything and removes the endpoint file; the on/off setting stays. */
  async shutdown(): Promise<void> {
    await this.#stop('Switchboard is closing');
    await this.#store.flush();
  }

  /** Last-resort cleanup at process exit (the endpoint file must not outlive the process). */
  exitSync(): void {
    if (this.#front) removeEndpointSync(this.#opts.dataDir);
  }

  async #start(port: number): Promise<void> {
    if (this.#front) return;
    if (this.#starting) return this.#starting;
    this.#starting = (async () => {
      await this.#loadDigests();
      const front = await startFront({
        port,
        authenticate: (token) => this.#traced(this.#authenticate(token)),
        ...(this.#opts.onRefused ? { onRefused: this.#opts.onRefused } : {}),
        ...(this.#opts.admission ? { admission: this.#opts.admission } : {}),
        ...(this.#opts.door ? { door: this.#opts.door } : {}),
      });
      this.#front = front;
      this.#launchKey = newLaunchKey();
      this.#error = undefined;
      try {
        await this.#writeEndpoint();
      } catch (err) {
        await this.#stop('The endpoint file could not be written');
        throw new AppError('storage_failed', `The gateway endpoint file could not be written: ${(err as Error).message}`);
      }
    })();
    try {
      await this.#starting;
    } finally {
      this.#starting = undefined;
    }
  }

  async #stop(reason: string): Promise<void> {
    const front = this.#front;
    this.#front = undefined;
    this.#launchKey = undefined;
    this.asks.cancelAll(reason);
    this.#calls.cancelAll();
    await this.#tasks.forget();
    await Promise.all([...this.#endpoints.values()].map((e) => e.close()));
    this.#endpoints.clear();
    await front?.close();
    await removeEndpoint(this.#opts.dataDir).catch(() => undefined);
  }

  /** Reads every client's token digest once (also with the gateway off, so the list can say whose token was lost). */
  #loadDigests(): Promise<void> {
    if (this.#digestsLoaded) return Promise.resolve();
    this.#loadingDigests ??= this.#readDigests().finally(() => (this.#loadingDigests = undefined));
    return this.#loadingDigests;
  }

  async #readDigests(): Promise<void> {
    for (const c of this.#store.settings.clients) {
      if (this.#digests.has(c.id)) continue;
      let digest: string | null;
      try {
        digest = await this.#host.credentials.get(tokenAccount(c.id));
      } catch (err) {
        digest = null;
        this.#unreadable.add(c.id);
        this.#host.problems.report({
          id: 'gateway-token-unreadable',
          notify: true,
          message: `The token of gateway client ${c.name} could not be read from the credential store (${err instanceof Error ? err.message : String(err)}); it cannot connect until you issue it a new token.`,
        });
      }
      if (digest) this.#digests.set(c.id, digest);
    }
    this.#digestsLoaded = true;
  }

  /** Rewrites the endpoint file after a change; a failure is the person's to hear of (stdio clients cannot find the gateway). */
  async #rewriteEndpoint(): Promise<void> {
    try {
      await this.#writeEndpoint();
      this.#host.problems.resolved('gateway-endpoint-file');
    } catch (err) {
      this.#host.problems.report({
        id: 'gateway-endpoint-file',
        level: 'error',
        notify: true,
        message: `The gateway's endpoint file could not be written (${err instanceof Error ? err.message : String(err)}); apps that start switchboard-gateway may not find it or may miss a client change.`,
      });
    }
  }

  async #writeEndpoint(): Promise<void> {
    if (!this.#front || !this.#launchKey) return;
    await writeEndpoint(this.#opts.dataDir, {
      url: this.#front.url,
      port: this.#front.port,
      pid: process.pid,
      key: this.#launchKey,
      clients: this.#store.settings.clients.map((c) => ({ id: c.id, name: c.name })),
    });
  }

  // ------------------------------------------------------------------ contract

  /** gateway.status */
  status(): GatewayStatus {
    const s = this.#store.settings;
    const port = this.#front?.port ?? s.port;
    return {
      enabled: s.enabled,
      running: this.#front !== undefined,
      ...(this.#front ? { url: this.#front.url, endpointFile: endpointPath(this.#opts.dataDir) } : {}),
      ...(port !== undefined ? { port } : {}),
      ...(this.#error && s.enabled && !this.#front ? { error: this.#error } : {}),
      clients: s.clients.length,
      sessions: [...this.#endpoints.values()].reduce((n, e) => n + e.sessions, 0),
      pending: this.asks.pending(),
      relayServers: [...this.#relays()].sort(),
    };
  }

  /** gateway.enable */
  async enable(port?: number): Promise<GatewayStatus> {
    const wanted = port ?? this.#store.settings.port ?? 0;
    if (this.#front && port !== undefined && port !== 0 && port !== this.#front.port) await this.#stop('The gateway moved to another port');
    try {
      await this.#start(wanted);
    } catch (err) {
      this.#error = err instanceof AppError ? err.message : 'The gateway could not start';
      throw err;
    }
    await this.#store.save({ ...this.#store.settings, enabled: true, port: this.#front!.port });
    return this.status();
  }

  /** gateway.disable */
  async disable(): Promise<GatewayStatus> {
    await this.#stop('The gateway was turned off');
    await this.#store.save({ ...this.#store.settings, enabled: false });
    this.#error = undefined;
    return this.status();
  }

  /** gateway.clients (after the token digests are read, so a lost token is named even with the gateway off) */
  async clients(): Promise<GatewayClientView[]> {
    await this.#loadDigests();
    return this.#store.settings.clients.map((c) => this.#clientView(c));
  }

  /** gateway.addClient */
  async addClient(name: string, profile: GatewayProfile): Promise<GatewayClientView & { token: string }> {
    const clean = name.trim();
    this.#checkName(clean);
    const normalized = normalizeProfile(profile, this.#host.configs(), this.#relays());
    const id = newClientId();
    const token = newClientToken(id);
    const digest = tokenDigest(token);
    await this.#host.credentials.set(tokenAccount(id), digest);
    const client: StoredClient = { id, name: clean, profile: normalized, createdAt: Date.now() };
    try {
      await this.#store.save({ ...this.#store.settings, clients: [...this.#store.settings.clients, client] });
    } catch (err) {
      await this.#host.credentials.delete(tokenAccount(id)).catch(() => undefined);
      throw err;
    }
    this.#digests.set(id, digest);
    await this.#rewriteEndpoint();
    return { ...this.#clientView(client), token };
  }

  /** gateway.updateClient */
  async updateClient(id: string, changes: { name?: string; profile?: GatewayProfile }): Promise<GatewayClientView> {
    const current = this.#stored(id);
    const name = changes.name?.trim() ?? current.name;
    if (name.toLowerCase() !== current.name.toLowerCase()) this.#checkName(name);
    const profile = changes.profile ? normalizeProfile(changes.profile, this.#host.configs(), this.#relays()) : current.profile;
    const next: StoredClient = { ...current, name, profile };
    await this.#store.save({ ...this.#store.settings, clients: this.#store.settings.clients.map((c) => (c.id === id ? next : c)) });
    const endpoint = this.#endpoints.get(id);
    if (endpoint) {
      endpoint.client.name = name;
      endpoint.toolsChanged();
      endpoint.promptsChanged();
      endpoint.resourcesChanged();
    }
    await this.#rewriteEndpoint();
    return this.#clientView(next);
  }

  /** gateway.removeClient */
  async removeClient(id: string): Promise<void> {
    this.#stored(id);
    await this.#store.save({ ...this.#store.settings, clients: this.#store.settings.clients.filter((c) => c.id !== id) });
    this.#digests.delete(id);
    this.#unreadable.delete(id);
    await this.#host.credentials.delete(tokenAccount(id)).catch(() => undefined);
    this.asks.cancelAll('The client was removed', id);
    this.#calls.cancelAll(id);
    await this.#tasks.forget(id);
    const endpoint = this.#endpoints.get(id);
    this.#endpoints.delete(id);
    await endpoint?.close();
    await this.#rewriteEndpoint();
  }

  /** gateway.rotateToken */
  async rotateToken(id: string): Promise<GatewayClientView & { token: string }> {
    const client = this.#stored(id);
    const token = newClientToken(id);
    const digest = tokenDigest(token);
    await this.#host.credentials.set(tokenAccount(id), digest);
    this.#digests.set(id, digest);
    this.#unreadable.delete(id);
    return { ...this.#clientView(client), token };
  }

  /** gateway.requestArguments */
  requestArguments(requestId: string): GatewayRequestArguments {
    return this.asks.arguments(requestId);
  }

  /** gateway.decide */
  decide(requestId: string, allow: boolean, always = false): void {
    this.asks.decide(requestId, allow, always);
  }

  /** gateway.trustTool: allows a tool for a client as it is defined now, or takes that back. */
  async trustTool(id: string, tool: string, trusted: boolean): Promise<GatewayClientView> {
    const client = this.#stored(id);
    if (!trusted) {
      const next: StoredClient = { ...client, trusted: (client.trusted ?? []).filter((t) => t.tool !== tool) };
      await this.#saveClient(next);
      return this.#clientView(next);
    }
    const view = this.#view(id);
    // Only a tool this client can see, in the definition the person approved (a changed tool is refused here).
    const route = await this.#host.catalog.route(tool);
    if (route.appOnly || !view?.sees(route.serverId)) throw new AppError('not_found', `This client cannot see a tool named ${tool}`);
    await this.#setTrust(id, route.localName, route.fingerprint);
    return this.#clientView(this.#stored(id));
  }

  /** gateway.activity */
  activity(limit?: number): GatewayActivity[] {
    return this.#activity.recent(limit);
  }

  /** gateway.setupPreview */
  async setupPreview(args: GatewaySetupArgs): Promise<GatewaySetupPreview> {
    return setupPreview(this.#setupContext(args), args);
  }

  /** gateway.setupInstall */
  async setupInstall(args: GatewaySetupArgs): Promise<GatewaySetupResult> {
    return setupInstall(this.#setupContext(args), args);
  }

  // ------------------------------------------------------------------ internals

  #setupContext(args: GatewaySetupArgs) {
    const client = this.#stored(args.id);
    if (args.token !== undefined && !this.#tokenOf(args.token, client.id))
      throw new AppError('invalid_request', 'That token does not belong to this client (rotate the token to get a new one)');
    const port = this.#front?.port ?? this.#store.settings.port;
    return {
      client: { id: client.id, name: client.name },
      url: port !== undefined ? `http://127.0.0.1:${port}/mcp` : undefined,
      dataDir: this.#opts.dataDir,
      launcher: this.#opts.launcher?.(),
    };
  }

  #tokenOf(token: string, id: string): boolean {
    const parsed = parseBearer(token);
    return parsed !== undefined && !parsed.launch && parsed.id === id && digestMatches(tokenDigest(token), this.#digests.get(id));
  }

  /** The endpoint, its requests wrapped by `traceRequest` when one is set. */
  #traced(endpoint: ClientEndpoint | undefined): FrontTarget | undefined {
    const trace = this.#opts.traceRequest;
    if (!endpoint || !trace) return endpoint;
    return { fetch: (request) => trace(endpoint.client.id, request, () => endpoint.fetch(request)) };
  }

  #authenticate(token: string): ClientEndpoint | undefined {
    const parsed = parseBearer(token);
    let ok: boolean;
    if (parsed === undefined) {
      digestMatches(tokenDigest(token), undefined);
      ok = false;
    } else if (parsed.launch) ok = launchTokenMatches(token, this.#launchKey, parsed.id);
    else ok = digestMatches(tokenDigest(token), this.#digests.get(parsed.id));
    if (!ok || !parsed || !this.#front) return undefined;
    const stored = this.#store.settings.clients.find((c) => c.id === parsed.id);
    if (!stored) return undefined;
    let endpoint = this.#endpoints.get(stored.id);
    if (!endpoint) {
      const client: SurfaceClient = { id: stored.id, name: stored.name };
      endpoint = new ClientEndpoint(this.#surface, client, {
        sessionChanged: (c, opened) =>
          this.#activity.add({
            clientId: c.id,
            clientName: c.name,
            kind: 'session',
            message: opened ? 'opened a session' : 'closed a session',
          }),
        release: (serverId, uri) => void this.#forwarding.unsubscribe(serverId, uri),
        selected: (c, n) =>
          this.#activity.add({ clientId: c.id, clientName: c.name, kind: 'selected', message: `has ${n} selected tools` }),
      });
      this.#endpoints.set(stored.id, endpoint);
    }
    return endpoint;
  }

  #trusted(clientId: string, route: ToolRoute): boolean {
    const client = this.#store.settings.clients.find((c) => c.id === clientId);
    return client?.trusted?.some((t) => t.tool === route.localName && t.fingerprint === route.fingerprint) === true;
  }

  async #setTrust(clientId: string, tool: string, fingerprint: string): Promise<void> {
    const client = this.#stored(clientId);
    const others = (client.trusted ?? []).filter((t) => t.tool !== tool);
    if (others.length >= MAX_TRUSTED_TOOLS)
      throw new AppError('invalid_request', `A client can have at most ${MAX_TRUSTED_TOOLS} tools allowed without asking`);
    await this.#saveClient({ ...client, trusted: [...others, { tool, fingerprint }] });
  }

  async #saveClient(next: StoredClient): Promise<void> {
    await this.#store.save({ ...this.#store.settings, clients: this.#store.settings.clients.map((c) => (c.id === next.id ? next : c)) });
  }

  #stored(id: string): StoredClient {
    const found = this.#store.settings.clients.find((c) => c.id === id);
    if (!found) throw new AppError('not_found', `No gateway client with id "${id}"`);
    return found;
  }

  #checkName(name: string): void {
    if (this.#store.settings.clients.some((c) => c.name.toLowerCase() === name.toLowerCase()))
      throw new AppError('id_conflict', `A gateway client named "${name}" already exists`);
  }

  #view(clientId: string): ProfileView | undefined {
    const stored = this.#store.settings.clients.find((c) => c.id === clientId);
    if (!stored) return undefined;
    const configs = this.#host.configs();
    const relaySet = this.#relays();
    const relays = [...relaySet].sort().join('\u0000');
    const cached = this.#views.get(stored.profile);
    if (cached && cached.configs === configs && cached.relays === relays) return cached.view;
    const view = new ProfileView(stored.profile, configs, relaySet);
    this.#views.set(stored.profile, { configs, relays, view });
    return view;
  }

  #relays(): ReadonlySet<string> {
    return this.#host.relayServers?.() ?? new Set();
  }

  #clientView(c: StoredClient): GatewayClientView {
    return {
      id: c.id,
      name: c.name,
      profile: c.profile,
      createdAt: c.createdAt,
      ...(c.lastActivity ? { lastActivity: c.lastActivity } : {}),
      sessions: this.#endpoints.get(c.id)?.sessions ?? 0,
      runningCalls: this.#calls.running(c.id),
      missing: new ProfileView(c.profile, this.#host.configs()).missing(),
      ...(this.#digestsLoaded && !this.#digests.has(c.id)
        ? {
            tokenLost: this.#unreadable.has(c.id)
              ? ('unreadable' as const)
              : this.#host.credentials.persistent
                ? ('missing' as const)
                : ('not-kept' as const),
          }
        : {}),
      trustedTools: (c.trusted ?? []).map((t) => ({ tool: t.tool, current: this.#currentFingerprint(t.tool) === t.fingerprint })),
    };
  }

  #currentFingerprint(localName: string): string | undefined {
    try {
      const detail = this.#host.catalog.tool(localName);
      return detail.pin === 'approved' ? detail.fingerprint : undefined;
    } catch {
      return undefined;
    }
  }

  #serverName(id: string): string {
    try {
      return truncate(sanitizeText(this.#host.config(id).name), 200);
    } catch {
      return id;
    }
  }

  /** The secrets the launch gate says this server's approved launch lost (empty when none or not asked). */
  #missingSecrets(config: ServerConfig): readonly string[] {
    return this.#host.launchRefusal?.(config)?.evidence?.missingSecrets ?? [];
  }

  #serverNote(id: string): string | undefined {
    let config: ServerConfig;
    try {
      config = this.#host.config(id);
    } catch {
      return undefined;
    }
    const name = this.#serverName(id);
    if (!config.enabled) return `${name} is turned off in Switchboard.`;
    if (!this.#host.isLaunchApproved(config)) {
      const missing = this.#missingSecrets(config);
      if (missing.length > 0) return missingSecretsMessage(name, missing);
      return `${name} is waiting for its launch to be approved: open Switchboard and approve it.`;
    }
    const status = this.#host.sessions.status(id);
    if (status.state === 'needs-auth') return `${name} needs sign-in: open Switchboard and sign in to ${name}.`;
    if (status.state === 'failed')
      return `${name} is not available right now${status.error ? `: ${truncate(status.error.message, 300)}` : ''}.`;
    return undefined;
  }

  #each(serverId: string | undefined, fn: (endpoint: ClientEndpoint, view: ProfileView) => void): void {
    for (const endpoint of this.#endpoints.values()) {
      const view = this.#view(endpoint.client.id);
      if (view && (serverId === undefined || view.sees(serverId))) fn(endpoint, view);
    }
  }

  #onEvent(event: string, payload: unknown): void {
    const p = payload as { id?: string; uri?: string; serverIds?: string[]; status?: { state: string } };
    if (event === 'servers.status' && p.id !== undefined && p.status) {
      const was = this.#lastState.get(p.id) === 'connected';
      const now = p.status.state === 'connected';
      this.#lastState.set(p.id, p.status.state);
      if (was !== now)
        this.#each(p.id, (e) => {
          e.toolsChanged();
          e.promptsChanged();
          e.resourcesChanged();
        });
      return;
    }
    if (this.#endpoints.size === 0) return;
    switch (event) {
      case 'catalog.changed':
        for (const id of new Set(p.serverIds ?? [])) this.#each(id, (e) => e.toolsChanged());
        return;
      case 'servers.changed':
        this.#each(undefined, (e) => {
          e.toolsChanged();
          e.promptsChanged();
          e.resourcesChanged();
        });
        return;
      case 'prompts.listChanged':
        if (p.id !== undefined) this.#each(p.id, (e) => e.promptsChanged());
        return;
      case 'resources.listChanged':
        if (p.id !== undefined) this.#each(p.id, (e) => e.resourcesChanged());
        return;
      case 'resources.updated':
        if (p.id !== undefined && p.uri !== undefined) {
          const serverId = p.id;
          const uri = p.uri;
          this.#each(serverId, (e, view) => e.resourceUpdated(wrapUri(serverId, uri, view.original)));
        }
        return;
      default:
        return;
    }
  }
}
