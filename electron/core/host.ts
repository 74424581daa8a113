// The Host owns server definitions and their persistence, and fronts the session controller.
// Every contract method lands on one Host method (see handlers.ts).
import type { ServerConfig, ServerConfigInput, Settings } from '../../shared/config.js';
import type {
  AppInfo,
  AppNotice,
  ImportFormat,
  ImportPreview,
  ImportResult,
  LeftoverProcess,
  LogEntry,
  ServerDetail,
  ServerStatus,
  ServerSummary,
} from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';
import { createHostApps } from './apps/host-apps.js';
import type { AppsService } from './apps/apps-service.js';
import { createHostCalls } from './calls/host-calls.js';
import { parseElicitParams } from './elicitation/elicit-params.js';
import { EventBus } from './event-bus.js';
import { Presence } from './presence.js';
import { ProblemReporter, type ProblemSinks } from './problems.js';
import { AuthCredentials } from './auth/credentials.js';
import { applyImport, exportServers, previewImport } from './import/import-service.js';
import type { Catalog } from './catalog/catalog.js';
import { createHostCatalog } from './catalog/host-catalog.js';
import { JsonFilePinStore, type PinStore } from './catalog/pins.js';
import { boundedStep, ShutdownHooks, stepBudget, type ShutdownHook, type ShutdownReport, type ShutdownStep } from './lifecycle/shutdown.js';
import type { CredentialStore, SettingsStore } from './ports.js';
import { displayTarget, isLegacyFingerprint } from './servers/approval.js';
import { LaunchApprovals } from './servers/launch-approvals.js';
import { deleteSecrets, maskConfig, persistSecrets, splitParsed, splitSecrets, type SplitConfig } from './servers/secrets.js';
import { TimeSlice } from './time-slice.js';
import type { SessionController } from './sessions/session-controller.js';
import { ProcessRecord } from './sessions/process-record.js';
import { SessionEvents } from './sessions/session-events.js';
import { Interaction } from './resources/interaction.js';
import { EventsService } from './events/events-service.js';
import type { EventsTuning } from './events/tuning.js';
import { join } from 'node:path';
import { Gateway } from './gateway/gateway-service.js';
import type { GatewayLauncher } from './gateway/setup-help.js';
import { ClientFeatures } from './protocol/client-features.js';
import type { TrafficSink } from './protocol/traffic-tap.js';

/** How long shutdown() takes before its writes' grace (FLUSH_GRACE_MS); the Electron shell waits 5 s in all. */
export const SHUTDOWN_TIMEOUT_MS = 4500;
/** Time kept for the writes when sessions or release steps are slow. */
const FLUSH_RESERVE_MS = 500;
/** Time kept after the sessions for the release steps (ending process groups that are left must always run). */
const RELEASE_RESERVE_MS = 500;

const LEFTOVERS_NOTICE = 'leftover-processes';

function leftoversNotice(count: number): AppNotice {
  const what = count === 1 ? '1 server process from an earlier run is' : `${count} server processes from an earlier run are`;
  return {
    id: LEFTOVERS_NOTICE,
    level: 'warning',
    message: `${what} still running (Switchboard was stopped before it could end them). Settings lists them and can end them.`,
  };
}

/** What a Host is built from. */
export interface HostOptions {
  /** Which shell runs the host. */
  mode: AppInfo['mode'];
  /** App version. */
  version: string;
  /** Settings persistence. */
  settingsStore: SettingsStore;
  /** Secret persistence. */
  credentials: CredentialStore;
  /** Builds the session controller once the host exists. */
  createSessions: (host: Host) => SessionController;
  /** Definition of the built-in demo server, when the shell ships one. */
  demoServer?: () => ServerConfigInput;
  /** Notices raised before the host existed (e.g. keychain unavailable). */
  notices?: AppNotice[];
  /** Timings of the events client (tests shorten the stream silence timeout and the like). */
  eventsTuning?: Partial<EventsTuning>;
  /** How other apps start the gateway's stdio entry point (absent: the `switchboard-gateway` command). */
  gatewayLauncher?: () => GatewayLauncher | undefined;
  /** The shell's log file, shown in Settings/About. */
  logFile?: string | null;
  /** Writes a line to the shell's log (problems go there); absent: no log. */
  log?: ProblemSinks['log'];
}

/** An error's message for a problem report, bounded. */
function errorText(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

/** Core of the app: definitions, persistence, sessions, events. No Electron. */
export class Host {
  /** Every store's and background loop's failures: logged, and a notice when they matter to the person. */
  readonly problems: ProblemReporter = new ProblemReporter({
    log: (level, scope, text) => this.#opts.log?.(level, scope, text),
    notify: (notice) => this.notify(notice),
  });
  readonly events = new EventBus((event, err) =>
    this.problems.report({ id: 'listener-failed', message: `Switchboard failed while handling ${event}: ${errorText(err)}` }),
  );
  /** Whether the person can see a Switchboard window; the shell reports its windows and pages here. */
  readonly presence = new Presence();
  /** Session-level events (connected, closed, list changes) for core modules. */
  readonly sessionEvents = new SessionEvents((event, err) =>
    this.problems.report({
      id: 'listener-failed',
      serverId: event.id,
      message: `Switchboard failed while handling a session's ${event.type} event: ${errorText(err)}`,
    }),
  );
  /** Resources, prompts, completion and elicitation (also the sessions' per-Client hooks). */
  readonly interaction: Interaction = new Interaction(this);
  readonly credentials: CredentialStore;
  readonly #opts: HostOptions;
  #settings: Settings;
  #notices: AppNotice[];
  readonly sessions: SessionController;
  /** Sampling by hand, roots, elicitation consent and the protocol view's traffic. */
  readonly clientFeatures: ClientFeatures;
  /** The tool catalog (also the CatalogPort tool calls use). */
  readonly catalog: Catalog;
  /** Tool calls, their history and results. */
  readonly calls = createHostCalls(this);
  readonly #approvals: LaunchApprovals;
  /** Settles once the digests of stored secret env values are known (start() waits for it). */
  readonly #approvalsReady: Promise<void>;
  /** MCP Events extension: event types, subscriptions and the feed (`<data>/events`). */
  readonly mcpEvents: EventsService;
  /** Serves these connections to the person's other MCP apps (off until turned on). */
  readonly gateway: Gateway;
  /** Tool approvals (pins), kept next to the settings. */
  readonly pins: PinStore;
  readonly #hooks = new ShutdownHooks();
  #shutdown: Promise<ShutdownReport> | undefined;
  #shutdownStarted: number | undefined;
  /** MCP Apps: launches, the requests apps make and per-server grants. */
  readonly apps: AppsService;
  /** Live stdio process groups and leftovers of an earlier run (`<data>/processes.json`). */
  readonly processes: ProcessRecord;

  constructor(opts: HostOptions) {
    this.#opts = opts;
    this.credentials = opts.credentials;
    const loaded = opts.settingsStore.load();
    this.#settings = loaded.settings;
    this.#notices = [...(opts.notices ?? []), ...loaded.notices];
    if (!opts.credentials.persistent) {
      this.#notices.push({
        id: 'credentials-memory',
        level: 'warning',
        message: 'No OS keychain is available: secrets and sign-ins are kept in memory only and will not survive a restart.',
      });
    }
    this.#approvals = new LaunchApprovals(opts.credentials);
    const legacy = this.#settings.servers.filter((c) => {
      const stored = this.#settings.approvals[c.id];
      return c.transport.type === 'stdio' && typeof stored === 'string' && isLegacyFingerprint(stored);
    });
    if (legacy.length > 0) {
      this.#notices.push({
        id: 'approvals-env-values',
        level: 'info',
        message:
          'Launch approvals now cover the values of environment variables (secrets by a keyed digest), not only their names. ' +
          `Approvals from an earlier version did not, so these servers ask once more before they start: ${legacy.map((c) => c.name).join(', ')}.`,
      });
    }
    this.#approvalsReady = this.#approvals
      .prepare(this.#settings.servers)
      .then(() => this.events.emit('servers.changed', { servers: this.list() }))
      .catch(() => undefined);
    this.clientFeatures = new ClientFeatures(
      {
        events: this.events,
        presence: this.presence,
        sessionEvents: this.sessionEvents,
        credentials: this.credentials,
        config: (id) => this.config(id),
        update: (id, input) => this.update(id, input),
        status: (id) => this.status(id),
        elicitationBroker: () => this.interaction.elicitation,
      },
      opts.settingsStore.dir,
    );
    const featuresNotice = this.clientFeatures.notice();
    if (featuresNotice) this.#notices.push(featuresNotice);
    this.calls.setFeatureHooks(this.clientFeatures);
    this.processes = new ProcessRecord(opts.settingsStore.dir, { onNotice: (n) => this.notify(n) });
    const leftovers = this.processes.load();
    if (leftovers > 0) this.#notices.push(leftoversNotice(leftovers));
    this.sessions = opts.createSessions(this);
    this.pins = new JsonFilePinStore(opts.settingsStore.dir, { onNotice: (n) => this.notify(n) });
    this.catalog = createHostCatalog(this, opts.settingsStore.dir, this.pins);
    this.apps = createHostApps(this, opts.settingsStore.dir);
    this.mcpEvents = new EventsService(this, {
      dir: join(opts.settingsStore.dir, 'events'),
      ...(opts.eventsTuning ? { tuning: opts.eventsTuning } : {}),
      log: (id, level, text) => this.sessions.note?.(id, level, text),
      report: this.problems.report,
    });
    this.mcpEvents.start();
    // Event streams are cancelled while their sessions are still up; the feed and positions are written last.
    this.onShutdown({ name: 'close event streams', stage: 'stop', timeoutMs: 3000, run: () => this.mcpEvents.stop() });
    this.onShutdown({ name: 'write the event feed', stage: 'flush', timeoutMs: 5000, run: () => this.mcpEvents.shutdown() });
    // MRTR elicitation rounds of tool calls use the same broker and dialog as legacy elicitation/create.
    this.calls.setElicitationHandler(async (serverId, params, signal) => {
      const request = parseElicitParams(params);
      return request ? this.interaction.elicitation.request(serverId, request, signal) : { action: 'decline' };
    });
    // A server's requests and log lines during a gateway client's call go to that client.
    this.interaction.setCallRelay((serverId) => this.calls.relayFor(serverId));
    this.gateway = new Gateway(this, {
      dataDir: opts.settingsStore.dir,
      version: opts.version,
      ...(opts.gatewayLauncher ? { launcher: opts.gatewayLauncher } : {}),
    });
    // The gateway is a front door: it closes first, so no new call arrives while calls are cancelled.
    this.onShutdown({ name: 'stop the gateway', stage: 'stop', run: () => this.gateway.shutdown() });
    // After the sessions are released, so the file ends up holding only groups that outlived their release.
    this.onShutdown({ name: 'write the process record', stage: 'flush', run: () => this.processes.flush() });
  }

  /** Ends leftover process groups of an earlier run; the notice goes once none is left. */
  async endLeftovers(pgids: readonly number[]): Promise<{ ended: LeftoverProcess[]; remaining: LeftoverProcess[] }> {
    const result = await this.processes.end(pgids);
    const left = this.processes.leftovers().length;
    if (left === 0) this.dismissNotice(LEFTOVERS_NOTICE);
    else this.notify(leftoversNotice(left));
    return result;
  }

  /** Where every session's transport reports its JSON-RPC traffic (the protocol view). */
  get trafficSink(): TrafficSink {
    return this.clientFeatures;
  }

  /** Connects enabled servers per their startup policy (nothing once shutdown has begun). */
  async start(): Promise<void> {
    if (this.closing) return;
    await this.#approvalsReady;
    await this.gateway.resume();
    const report = await this.sessions.startAll();
    if (report.requiredFailures.length > 0) {
      this.notify({
        id: 'required-failed',
        level: 'error',
        message: `Required server(s) failed to start: ${report.requiredFailures.map((f) => `${f.id} (${f.message})`).join('; ')}`,
      });
    }
  }

  /**
   * Adds a step to shutdown (see ShutdownHook for the stages): modules that own a front door, a stream or a pending
   * write register here instead of editing shutdown(). Returns the function that removes the hook.
   */
  onShutdown(hook: ShutdownHook): () => void {
    return this.#hooks.add(hook);
  }

  /** True once shutdown has begun. */
  get closing(): boolean {
    return this.#shutdown !== undefined;
  }

  /** Milliseconds since shutdown began (undefined before): the last log line reports it. */
  shutdownElapsedMs(): number | undefined {
    return this.#shutdownStarted === undefined ? undefined : Date.now() - this.#shutdownStarted;
  }

  /**
   * Stops everything, bounded: `stop` hooks; running calls cancelled (tasks best-effort) and open elicitations
   * declined; the catalog stopped; every session released (stdio process groups ended); `release` hooks; then every
   * pending write flushed (history, tool approvals, discovery cache, `flush` hooks) — flush steps get their time even
   * past the deadline. Idempotent: a second call returns the first one's report.
   */
  shutdown(opts: { timeoutMs?: number } = {}): Promise<ShutdownReport> {
    this.#shutdown ??= this.#runShutdown(opts.timeoutMs ?? SHUTDOWN_TIMEOUT_MS);
    return this.#shutdown;
  }

  async #runShutdown(timeoutMs: number): Promise<ShutdownReport> {
    const started = Date.now();
    this.#shutdownStarted = started;
    const deadline = started + timeoutMs;
    const steps: ShutdownStep[] = [];
    const step = async (name: string, fn: () => Promise<void> | void, own: number): Promise<void> => {
      steps.push(await boundedStep(name, fn, stepBudget('stop', own, deadline)));
    };
    steps.push(...(await this.#hooks.run('stop', deadline)));
    // Calls first: tasks the app walks away from are cancelled best-effort while sessions are still up.
    await step('cancel calls', () => this.calls.dispose(), 3000);
    await step('decline elicitations', () => this.interaction.elicitation.cancelAll('Switchboard is closing'), 500);
    await step('close MCP Apps', () => this.apps.dispose(), 1000);
    await step('close client features', () => this.clientFeatures.dispose(), 1000);
    await step('stop the catalog', () => this.catalog.dispose(), 500);
    // The flushes need their share of the time: sessions get what is left minus a reserve.
    await step(
      'release sessions',
      () => this.sessions.shutdown(),
      Math.max(0, deadline - Date.now() - FLUSH_RESERVE_MS - RELEASE_RESERVE_MS),
    );
    steps.push(...(await this.#hooks.run('release', deadline - FLUSH_RESERVE_MS)));
    // Every write side by side (each has its own file), then what must come after all of them.
    const [history, approvals, hooked] = await Promise.all([
      boundedStep('write call history', () => this.calls.flushHistory(), stepBudget('flush', 2000, deadline)),
      boundedStep('write tool approvals', () => this.pins.flush(), stepBudget('flush', 2000, deadline)),
      this.#hooks.run('flush', deadline),
    ]);
    steps.push(history, approvals, ...hooked);
    steps.push(...(await this.#hooks.run('final', deadline)));
    return { steps, ms: Date.now() - started };
  }

  /** The current definitions (read-only snapshot). */
  configs(): readonly ServerConfig[] {
    return this.#settings.servers;
  }

  /** One definition, or a not_found error. */
  config(id: string): ServerConfig {
    const found = this.#settings.servers.find((s) => s.id === id);
    if (!found) throw new AppError('not_found', `No server with id "${id}"`, { serverId: id });
    return found;
  }

  /** Names of the event types a server offers, when listed (its catalog group card shows them). */
  eventTypeNames(id: string): readonly string[] | undefined {
    return this.mcpEvents?.knownTypes(id)?.map((t) => t.name);
  }

  /** Whether a stdio server's exact launch is approved (secret values not read yet count as approved: see verifyLaunch). */
  isLaunchApproved(config: ServerConfig): boolean {
    return this.#approvals.isApproved(config, this.#settings.approvals[config.id]);
  }

  /** The check right before a stdio spawn, on the environment actually passed; an error when it is not the approved launch. */
  async verifyLaunch(config: ServerConfig, env: Readonly<Record<string, string>>): Promise<AppError | undefined> {
    const refusal = await this.#approvals.verify(config, this.#settings.approvals[config.id], env);
    if (refusal) this.events.emit('servers.changed', { servers: this.list() });
    return refusal;
  }

  info(): AppInfo {
    return {
      name: 'Switchboard',
      version: this.#opts.version,
      mode: this.#opts.mode,
      platform: process.platform,
      dataDir: this.#opts.settingsStore.dir,
      logFile: this.#opts.logFile ?? null,
      notices: [...this.#notices],
      credentialStore: { kind: this.credentials.kind, persistent: this.credentials.persistent },
      offerDemo: !this.#settings.demoOffered && this.#settings.servers.length === 0 && this.#opts.demoServer !== undefined,
      appsWarmUrl: this.apps.warmUrl(),
    };
  }

  dismissNotice(id: string): void {
    this.#notices = this.#notices.filter((n) => n.id !== id);
    this.events.emit('app.notices', { notices: [...this.#notices] });
  }

  list(): ServerSummary[] {
    return this.#settings.servers.map((c) => this.#summary(c));
  }

  async get(id: string): Promise<ServerDetail> {
    const config = this.config(id);
    const approval = await this.#approvals.view(config, this.#settings.approvals[id]);
    const identity = this.sessions.identity(id);
    return {
      ...this.#summary(config),
      config: await maskConfig(this.credentials, config),
      ...(approval ? { approval } : {}),
      ...(identity ? { identity } : {}),
    };
  }

  async add(input: ServerConfigInput): Promise<ServerDetail> {
    if (this.#settings.servers.some((s) => s.id === input.id)) {
      throw new AppError('id_conflict', `A server with id "${input.id}" already exists`, { serverId: input.id });
    }
    const split = splitSecrets(input);
    await persistSecrets(this.credentials, split.config.id, split);
    await this.#approvals.note(split.config.id, split.writes, split.deletes);
    this.#save({ ...this.#settings, servers: [...this.#settings.servers, split.config] });
    this.sessions.register(split.config);
    return this.get(split.config.id);
  }

  async update(id: string, input: ServerConfigInput): Promise<ServerDetail> {
    const previous = this.config(id);
    if (input.id !== id) throw new AppError('config_invalid', 'A server id cannot be changed; remove and add it instead', { serverId: id });
    const split = splitSecrets(input, previous);
    await persistSecrets(this.credentials, id, split);
    await this.#approvals.note(id, split.writes, split.deletes);
    this.#save({ ...this.#settings, servers: this.#settings.servers.map((s) => (s.id === id ? split.config : s)) });
    this.sessions.update(split.config, {
      secretsChanged: split.writes.size > 0 || split.deletes.length > 0 || split.headerWrites.size > 0 || split.headerDeletes.length > 0,
    });
    return this.get(id);
  }

  async remove(id: string): Promise<void> {
    const config = this.config(id);
    await this.sessions.remove(id);
    const approvals = { ...this.#settings.approvals };
    delete approvals[id];
    this.#save({ ...this.#settings, servers: this.#settings.servers.filter((s) => s.id !== id), approvals });
    await deleteSecrets(this.credentials, config);
    this.#approvals.forget(id);
  }

  async approve(id: string, fingerprint: string): Promise<ServerDetail> {
    const config = this.config(id);
    const record = await this.#approvals.approve(config, fingerprint);
    this.#save({ ...this.#settings, approvals: { ...this.#settings.approvals, [id]: record } });
    this.sessions.update(config);
    return this.get(id);
  }

  async addDemo(): Promise<ServerDetail> {
    const make = this.#opts.demoServer;
    if (!make) throw new AppError('not_found', 'This build has no demo server');
    this.#save({ ...this.#settings, demoOffered: true });
    const detail = await this.add(make());
    // The user asked for the built-in demo by name: its launch is ours (the app's own runtime and script), so the
    // click is the approval. Any later edit of its command still needs approval again.
    return detail.approval?.required ? this.approve(detail.id, detail.approval.fingerprint) : detail;
  }

  importPreview(text: string, format?: ImportFormat): Promise<ImportPreview> {
    return previewImport(text, format, new Set(this.#settings.servers.map((s) => s.id)));
  }

  /**
   * Imports the chosen valid entries in one settings write: each entry is validated and its secrets stored, then all
   * are saved together and registered. Linear in the number of entries, and it yields to other calls every few
   * milliseconds (a 2,000-entry import took 72 s, one settings write and one list event per entry, blocking the bridge).
   */
  async import(args: {
    text: string;
    format?: ImportFormat;
    keys?: string[];
    secrets?: Record<string, Record<string, string>>;
  }): Promise<ImportResult> {
    const existing = new Set(this.#settings.servers.map((s) => s.id));
    const { configs, bearers, result } = await applyImport(args.text, args.format, existing, args.keys, args.secrets ?? {});
    const accepted: SplitConfig[] = [];
    const taken = new Set(existing);
    const slice = new TimeSlice();
    const auth = new AuthCredentials(this.credentials);
    for (const input of configs) {
      await slice.yieldIfDue();
      if (taken.has(input.id)) {
        result.skipped.push({ key: input.id, reason: `A server with id "${input.id}" already exists` });
        continue;
      }
      try {
        const split = splitParsed(input);
        if (split.writes.size > 0 || split.deletes.length > 0 || split.headerWrites.size > 0) {
          await persistSecrets(this.credentials, split.config.id, split);
          await this.#approvals.note(split.config.id, split.writes, split.deletes);
        }
        accepted.push(split);
        taken.add(split.config.id);
      } catch (err) {
        result.skipped.push({ key: input.id, reason: err instanceof AppError ? err.message : 'Could not be saved' });
      }
    }
    // Servers added by other calls while this one yielded win their ids.
    const now = new Set(this.#settings.servers.map((s) => s.id));
    const saved = accepted.filter((split) => {
      if (!now.has(split.config.id)) return true;
      result.skipped.push({ key: split.config.id, reason: `A server with id "${split.config.id}" already exists` });
      return false;
    });
    // An Authorization: Bearer header becomes the server's stored bearer token, before its first connect (stored only
    // for entries that kept their id, so another server's token is never replaced).
    for (const split of saved) {
      const bearer = bearers[split.config.id];
      if (bearer !== undefined) await auth.setBearer(split.config.id, bearer);
    }
    if (saved.length > 0) this.#save({ ...this.#settings, servers: [...this.#settings.servers, ...saved.map((split) => split.config)] });
    for (const split of saved) {
      this.sessions.register(split.config);
      result.added.push(split.config.id);
    }
    return result;
  }

  exportServers(format: ImportFormat, ids?: string[]): { format: ImportFormat; fileName: string; text: string } {
    const chosen = ids ? this.#settings.servers.filter((s) => ids.includes(s.id)) : this.#settings.servers;
    return exportServers(chosen, format);
  }

  status(id: string): ServerStatus {
    this.config(id);
    return this.sessions.status(id);
  }

  logs(id: string): LogEntry[] {
    this.config(id);
    return this.sessions.logs(id);
  }

  #summary(config: ServerConfig): ServerSummary {
    return {
      id: config.id,
      name: config.name,
      enabled: config.enabled,
      transport: config.transport.type,
      target: displayTarget(config),
      status: this.sessions.status(config.id),
      needsApproval: !this.isLaunchApproved(config),
    };
  }

  /** Shows a notice to the user (replacing an earlier one with the same id). */
  notify(notice: AppNotice): void {
    this.#notices = [...this.#notices.filter((n) => n.id !== notice.id), notice];
    this.events.emit('app.notices', { notices: [...this.#notices] });
  }

  #save(next: Settings): void {
    try {
      this.#opts.settingsStore.save(next);
    } catch (err) {
      throw new AppError('storage_failed', `Settings could not be saved: ${(err as Error).message}`, { cause: err });
    }
    this.#settings = next;
    this.events.emit('servers.changed', { servers: this.list() });
  }
}
