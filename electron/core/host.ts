// The core as the contract handlers and the shells see it: a thin facade over the services the composition root
// (compose.ts) built. Every contract method lands on one of these (see handlers.ts).
import type { ServerConfig, ServerConfigInput } from '../../shared/config.js';
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
import type { AppError } from '../../shared/errors.js';
import type { AppsService } from './apps/apps-service.js';
import type { AuthManager } from './auth/auth-manager.js';
import type { CallService } from './calls/call-service.js';
import type { Catalog } from './catalog/catalog.js';
import type { PinStore } from './catalog/pins.js';
import type { DoctorOptions } from './doctor/doctor-walk.js';
import type { EventBus } from './event-bus.js';
import type { Presence } from './presence.js';
import type { ProblemReporter } from './problems.js';
import type { EventsService } from './events/events-service.js';
import type { Gateway } from './gateway/gateway-service.js';
import type { ServerImport } from './import/server-import.js';
import type { CoreLifetime } from './lifecycle/core-lifetime.js';
import type { ShutdownHook, ShutdownReport } from './lifecycle/shutdown.js';
import type { Notices } from './notices.js';
import type { CredentialStore } from './ports.js';
import type { ClientFeatures } from './protocol/client-features.js';
import type { FeatureSettings } from './protocol/feature-settings.js';
import type { TrafficSink } from './protocol/traffic-tap.js';
import type { RegistryService } from './registry/registry-service.js';
import type { SkillsService } from './skills/skills-service.js';
import type { Interaction } from './resources/interaction.js';
import type { Definitions } from './servers/definitions.js';
import type { LaunchGate } from './servers/launch-gate.js';
import type { ServerDirectory } from './servers/server-directory.js';
import type { ProcessRecord } from './sessions/process-record.js';
import type { SessionController } from './sessions/session-controller.js';
import type { SessionEvents } from './sessions/session-events.js';
import type { TelemetrySetting } from './settings/telemetry-setting.js';

export { SHUTDOWN_TIMEOUT_MS } from './lifecycle/core-lifetime.js';

/** The id of the notice about server processes left from an earlier run. */
export const LEFTOVERS_NOTICE = 'leftover-processes';

/** The notice about `count` server processes left from an earlier run. */
export function leftoversNotice(count: number): AppNotice {
  const what = count === 1 ? '1 server process from an earlier run is' : `${count} server processes from an earlier run are`;
  return {
    id: LEFTOVERS_NOTICE,
    level: 'warning',
    message: `${what} still running (Switchboard was stopped before it could end them). Settings lists them and can end them.`,
  };
}

/** What the facade fronts: the built services and the shell's identity. */
export interface HostParts {
  mode: AppInfo['mode'];
  version: string;
  logFile: string | null;
  lifetime: CoreLifetime;
  events: EventBus;
  presence: Presence;
  problems: ProblemReporter;
  sessionEvents: SessionEvents;
  notices: Notices;
  credentials: CredentialStore;
  definitions: Definitions;
  gate: LaunchGate;
  processes: ProcessRecord;
  clientFeatures: ClientFeatures;
  featureSettings: FeatureSettings;
  interaction: Interaction;
  auth: AuthManager;
  sessions: SessionController;
  mcpEvents: EventsService;
  pins: PinStore;
  catalog: Catalog;
  calls: CallService;
  gateway: Gateway;
  apps: AppsService;
  servers: ServerDirectory;
  imports: ServerImport;
  registry: RegistryService;
  skills: SkillsService;
  doctor: DoctorOptions;
  telemetrySetting: TelemetrySetting;
}

/** Core of the app: the services, and the methods the contract calls on them. No Electron. */
export class Host {
  readonly events: EventBus;
  /** Whether the person can see a Switchboard window; the shell reports its windows and pages here. */
  readonly presence: Presence;
  /** Every store's and background loop's failures: logged, and a notice when they matter to the person. */
  readonly problems: ProblemReporter;
  /** Session-level events (connected, closed, list changes) for core modules. */
  readonly sessionEvents: SessionEvents;
  /** Resources, prompts, completion and elicitation. */
  readonly interaction: Interaction;
  readonly credentials: CredentialStore;
  readonly sessions: SessionController;
  /** Sampling by hand, roots, elicitation consent and the protocol view's traffic. */
  readonly clientFeatures: FeatureSettings;
  /** The tool catalog (also the CatalogPort tool calls use). */
  readonly catalog: Catalog;
  /** Tool calls, their history and results. */
  readonly calls: CallService;
  /** MCP Events extension: event types, subscriptions and the feed (`<data>/events`). */
  readonly mcpEvents: EventsService;
  /** Serves these connections to the person's other MCP apps (off until turned on). */
  readonly gateway: Gateway;
  /** Tool approvals (pins), kept next to the settings. */
  readonly pins: PinStore;
  /** MCP Apps: launches, the requests apps make and per-server grants. */
  readonly apps: AppsService;
  /** Live stdio process groups and leftovers of an earlier run (`<data>/processes.json`). */
  readonly processes: ProcessRecord;
  /** Authorization of HTTP/SSE servers. */
  readonly auth: AuthManager;
  /** MCP registries: search, install, updates. */
  readonly registry: RegistryService;
  /** Skills extension: listings, verification and content-bound approvals. */
  readonly skills: SkillsService;
  /** How the connection doctor reaches servers (login PATH, client identity, saved servers' credentials). */
  readonly doctor: DoctorOptions;
  /** The definitions as the contract sees them. */
  readonly servers: ServerDirectory;
  /** The OTLP tracing setting (saved now, applied at the next start). */
  readonly telemetrySetting: TelemetrySetting;
  readonly #p: HostParts;

  constructor(parts: HostParts) {
    this.#p = parts;
    this.events = parts.events;
    this.presence = parts.presence;
    this.problems = parts.problems;
    this.sessionEvents = parts.sessionEvents;
    this.interaction = parts.interaction;
    this.credentials = parts.credentials;
    this.sessions = parts.sessions;
    this.clientFeatures = parts.featureSettings;
    this.catalog = parts.catalog;
    this.calls = parts.calls;
    this.mcpEvents = parts.mcpEvents;
    this.gateway = parts.gateway;
    this.pins = parts.pins;
    this.apps = parts.apps;
    this.processes = parts.processes;
    this.auth = parts.auth;
    this.registry = parts.registry;
    this.skills = parts.skills;
    this.doctor = parts.doctor;
    this.servers = parts.servers;
    this.telemetrySetting = parts.telemetrySetting;
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
    return this.#p.clientFeatures;
  }

  /** Connects enabled servers per their startup policy (nothing once shutdown has begun). */
  async start(): Promise<void> {
    if (this.closing) return;
    await this.#p.gate.ready;
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
   * Adds a step to shutdown (see ShutdownHook for the stages): what the shell adds after the core was built (its
   * bridge, its sandbox). Returns the function that removes the hook.
   */
  onShutdown(hook: ShutdownHook): () => void {
    return this.#p.lifetime.add(hook);
  }

  /** True once shutdown has begun. */
  get closing(): boolean {
    return this.#p.lifetime.closing;
  }

  /** Milliseconds since shutdown began (undefined before): the last log line reports it. */
  shutdownElapsedMs(): number | undefined {
    return this.#p.lifetime.elapsedMs();
  }

  /** Stops everything, bounded, in the stages and order the services registered (see CoreLifetime.shutdown). */
  shutdown(opts: { timeoutMs?: number } = {}): Promise<ShutdownReport> {
    return this.#p.lifetime.shutdown(opts);
  }

  /** The current definitions (read-only snapshot). */
  configs(): readonly ServerConfig[] {
    return this.#p.definitions.configs();
  }

  /** One definition, or a not_found error. */
  config(id: string): ServerConfig {
    return this.#p.definitions.config(id);
  }

  /** Names of the event types a server offers, when listed (its catalog group card shows them). */
  eventTypeNames(id: string): readonly string[] | undefined {
    return this.mcpEvents.knownTypes(id)?.map((t) => t.name);
  }

  /** Whether a stdio server's exact launch is approved (secret values not read yet count as approved: see verifyLaunch). */
  isLaunchApproved(config: ServerConfig): boolean {
    return this.#p.gate.isApproved(config);
  }

  /** The check right before a stdio spawn, on the environment actually passed; an error when it is not the approved launch. */
  verifyLaunch(config: ServerConfig, env: Readonly<Record<string, string>>): Promise<AppError | undefined> {
    return this.#p.gate.verify(config, env);
  }

  info(): AppInfo {
    const settings = this.#p.definitions.settings;
    return {
      name: 'Switchboard',
      version: this.#p.version,
      mode: this.#p.mode,
      platform: process.platform,
      dataDir: this.#p.definitions.dir,
      logFile: this.#p.logFile,
      notices: this.#p.notices.list(),
      credentialStore: { kind: this.credentials.kind, persistent: this.credentials.persistent },
      offerDemo: !settings.demoOffered && settings.servers.length === 0 && this.servers.hasDemo,
      appsWarmUrl: this.apps.warmUrl(),
    };
  }

  dismissNotice(id: string): void {
    this.#p.notices.dismiss(id);
  }

  /** Shows a notice to the user (replacing an earlier one with the same id). */
  notify(notice: AppNotice): void {
    this.#p.notices.notify(notice);
  }

  list(): ServerSummary[] {
    return this.servers.list();
  }

  get(id: string): Promise<ServerDetail> {
    return this.servers.get(id);
  }

  add(input: ServerConfigInput): Promise<ServerDetail> {
    return this.servers.add(input);
  }

  update(id: string, input: ServerConfigInput): Promise<ServerDetail> {
    return this.servers.update(id, input);
  }

  async remove(id: string): Promise<void> {
    await this.servers.remove(id);
    // A later server under the same id is another origin: its skills start unapproved.
    this.skills.forget(id);
  }

  approve(id: string, fingerprint: string): Promise<ServerDetail> {
    return this.servers.approve(id, fingerprint);
  }

  addDemo(): Promise<ServerDetail> {
    return this.servers.addDemo();
  }

  importPreview(text: string, format?: ImportFormat): Promise<ImportPreview> {
    return this.#p.imports.preview(text, format);
  }

  /** Imports the chosen valid entries in one settings write (see ServerImport.import). */
  import(args: {
    text: string;
    format?: ImportFormat;
    keys?: string[];
    secrets?: Record<string, Record<string, string>>;
  }): Promise<ImportResult> {
    return this.#p.imports.import(args);
  }

  exportServers(format: ImportFormat, ids?: string[]): { format: ImportFormat; fileName: string; text: string } {
    return this.#p.imports.export(format, ids);
  }

  status(id: string): ServerStatus {
    return this.servers.status(id);
  }

  logs(id: string): LogEntry[] {
    return this.servers.logs(id);
  }
}
