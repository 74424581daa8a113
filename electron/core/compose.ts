// The composition root: builds the whole core from the shell's ports, in dependency order, each service handed its
// narrow ports by constructor, and each service's shutdown steps added to the core's one lifetime store as it is
// built (so shutdown order follows construction order; see DisposableStore).
//
// One edge points up the build order, because the domain has a cycle: sessions need authorization for their
// transports, and authorization reconnects (and reads the state of) sessions after a sign-in. Authorization's session
// port is three closures over the session controller declared below it, called only after createCore has returned.
import { join } from 'node:path';
import type { ServerConfigInput } from '../../shared/config.js';
import type { AppInfo, AppNotice } from '../../shared/contract.js';
import { createHostApps } from './apps/host-apps.js';
import { AuthManager } from './auth/auth-manager.js';
import type { AdoptSignIns, BrowserOpener, ListenForRedirect } from './auth/auth-ports.js';
import { createHostCalls } from './calls/host-calls.js';
import { RunningCalls } from './calls/running-calls.js';
import { createHostCatalog } from './catalog/host-catalog.js';
import { JsonFilePinStore } from './catalog/pins.js';
import type { LookupFn } from './doctor/net-probes.js';
import type { DoctorOptions } from './doctor/doctor-walk.js';
import type { UrlOpener } from './elicitation/url-opener.js';
import { EventBus } from './event-bus.js';
import { EventsService } from './events/events-service.js';
import { relayServerIds } from './events/webhook-relay.js';
import type { EventsTuning } from './events/tuning.js';
import { Gateway } from './gateway/gateway-service.js';
import type { AdmissionLimits } from './gateway/connection-admission.js';
import type { FrontDoor } from './gateway/http-front.js';
import type { GatewayLauncher } from './gateway/setup-help.js';
import { Host, leftoversNotice } from './host.js';
import { ServerImport } from './import/server-import.js';
import { CoreLifetime, SESSIONS_LEAVE_MS } from './lifecycle/core-lifetime.js';
import { RunMarker } from './lifecycle/run-marker.js';
import { createTransportTracker } from './lifecycle/transport-tracker.js';
import { Presence } from './presence.js';
import { ProblemReporter } from './problems.js';
import { transportPipeline } from './transports/pipeline.js';
import { attachHostLog } from './logging/host-log.js';
import type { Logger } from './logging/logger.js';
import { Notices } from './notices.js';
import type { CredentialStore, SettingsStore } from './ports.js';
import { MEMORY_CREDENTIALS_NOTICE, memoryCredentialsNotice } from './credentials-notice.js';
import { createElicitationBroker } from './elicitation/definitions-broker.js';
import { parseElicitParams } from './elicitation/elicit-params.js';
import { PrintingUrlOpener } from './elicitation/url-opener.js';
import { ClientFeatures } from './protocol/client-features.js';
import { FeatureSettings } from './protocol/feature-settings.js';
import { FeatureStore } from './protocol/feature-store.js';
import { InteractionHooks } from './resources/interaction-hooks.js';
import type { LocalPackages } from './registry/install-options.js';
import { RegistryService } from './registry/registry-service.js';
import { Interaction } from './resources/interaction.js';
import { Definitions } from './servers/definitions.js';
import { LaunchGate } from './servers/launch-gate.js';
import { ServerDirectory } from './servers/server-directory.js';
import { DiscoveryCache } from './sessions/discovery-cache.js';
import { ProcessRecord } from './sessions/process-record.js';
import type { SessionController } from './sessions/session-controller.js';
import { SessionEvents } from './sessions/session-events.js';
import { SkillsService } from './skills/skills-service.js';
import { defaultServerFolder, removeServerFolder, serverWorkDir, withLaunchWorkDir } from './servers/server-folders.js';
import { SessionManager, type SessionHost } from './sessions/session-manager.js';
import type { TransportFactory } from './transports/transport-factory.js';
import { startTelemetry } from './telemetry/start.js';
import { LiveTelemetry } from './telemetry/live.js';
import { savedEndpoint, TelemetrySetting } from './settings/telemetry-setting.js';
import { gatewayRequestTracer, instrumentCalls, instrumentResources } from './telemetry/instrument.js';

/** The discovery cache's file name in the data folder. */
export const DISCOVERY_CACHE_FILE = 'discovery-cache.json';

/** What the shell gives the core. */
export interface CorePorts {
  /** Which shell runs the core. */
  mode: AppInfo['mode'];
  /** App version. */
  version: string;
  /** Settings persistence (its folder is the data folder). */
  settingsStore: SettingsStore;
  /** Secret persistence. */
  credentials: CredentialStore;
  /** Notices raised before the core existed (e.g. keychain unavailable). */
  notices?: readonly AppNotice[];
  /** The shell's logger (closed as the very last shutdown step). */
  logger: Logger;
  /** The data folder's lock: released just before the log closes (so the log can say if it failed). */
  dataLock?: { release(): void };
  /** Opens transports (the real factory, or a test's). */
  transports: TransportFactory;
  /** Serves the shell's built-in servers in-process (the innermost layer of the transport pipeline). */
  inProcess?: (inner: TransportFactory) => TransportFactory;
  /** Whether a stdio command names a server built into the shell (the doctor opens it in-process). */
  isBuiltin?: (command: string) => boolean;
  /** The login-shell PATH (where stdio servers' commands are looked for). */
  loginPath?: () => Promise<string>;
  /** Opens URLs the person consented to (the app's safe opener); default: printed. */
  urlOpener?: UrlOpener;
  /** Authorization's ports: the sign-in opener and the loopback redirect listener. */
  auth: {
    opener: BrowserOpener;
    listen: ListenForRedirect;
    /** The sign-ins a previous core started that the shell still holds (absent: this process holds its own). */
    adopt?: AdoptSignIns;
    /** Where authorization's plain-words lines go (default: the logger). */
    log?: (serverId: string, level: 'info' | 'warning' | 'error', text: string) => void;
    /** Sign-in flow lifetime (tests shorten it). */
    flowTimeoutMs?: number;
  };
  /** Builds the session controller (tests pass an inert one or their own options); default: the SessionManager. */
  createSessions?: (host: SessionHost, transports: TransportFactory) => SessionController;
  /** Registry options (tests shorten its timeout, fake its fetch or map packages to local programs). */
  registry?: { localPackages?: LocalPackages; timeoutMs?: number; fetch?: typeof fetch; loginPath?: () => Promise<string> };
  /** The doctor's resolver (tests). */
  doctorLookup?: LookupFn;
  /** Definition of the built-in demo server, when the shell ships one. */
  demoServer?: () => ServerConfigInput;
  /** Timings of the events client (tests shorten the stream silence timeout and the like). */
  eventsTuning?: Partial<EventsTuning>;
  /** How other apps start the gateway's stdio entry point (absent: the `switchboard-gateway` command). */
  gatewayLauncher?: () => GatewayLauncher | undefined;
  /** The gateway front's connection deadlines and caps (absent: the defaults; tests shorten them). */
  gatewayAdmission?: Partial<AdmissionLimits>;
  /** The shell's listener on the gateway's port, which outlives this core (absent: the front listens on it itself). */
  gatewayDoor?: FrontDoor;
  /** An OTLP/HTTP endpoint for traces that overrides the settings' one (the command line's --otlp). */
  otlpEndpoint?: string;
  /** Batch delay of the trace exporter (tests shorten it; the shutdown sends what is left regardless). */
  otlpDelayMs?: number;
}

const CLOSING = 'Switchboard is closing';

/** An error's message for a problem report, bounded. */
function errorText(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

/** Builds the core. Nothing connects until `start()`. */
export function createCore(ports: CorePorts): Host {
  const { logger } = ports;
  const credentials = ports.credentials;
  const clientInfo = { name: 'switchboard', version: ports.version };
  const lifetime = new CoreLifetime();
  // Built first, closed last: the log, with the shutdown's own report in it; the data folder's lock just before it.
  lifetime.add({
    name: 'close the log',
    stage: 'final',
    run: async () => {
      logger.info('app', `shutdown finished its steps in ${lifetime.elapsedMs() ?? 0} ms`);
      await logger.close();
    },
  });
  const dataLock = ports.dataLock;
  if (dataLock) lifetime.add({ name: 'release the data folder', stage: 'final', run: () => dataLock.release() });

  // Every store's and background loop's failures, listener exceptions included: logged, and a notice when they
  // matter to the person. Its notices go through `notices`, built just below (reports wait for it).
  const problems = new ProblemReporter({
    log: (level, scope, text) => logger.log(level, scope, text),
    notify: (n) => notices.notify(n),
  });
  const events = new EventBus((event, err) =>
    problems.report({ id: 'listener-failed', message: `Switchboard failed while handling ${event}: ${errorText(err)}` }),
  );
  const sessionEvents = new SessionEvents((event, err) =>
    problems.report({
      id: 'listener-failed',
      serverId: event.id,
      message: `Switchboard failed while handling a session's ${event.type} event: ${errorText(err)}`,
    }),
  );
  // Whether the person can see a Switchboard window: the shell reports its windows and pages.
  const presence = new Presence();
  const definitions = new Definitions(ports.settingsStore);
  const dataDir = definitions.dir;
  const initialNotices = [...(ports.notices ?? []), ...definitions.loadNotices];
  const notices = new Notices(events, initialNotices);
  attachHostLog(events, logger, initialNotices);
  // One notice for memory-only secrets: the shell's (which says why the keychain failed) when it gave one.
  if (!credentials.persistent && !initialNotices.some((n) => n.id === MEMORY_CREDENTIALS_NOTICE)) {
    notices.notify(memoryCredentialsNotice());
  }
  const notify = (n: AppNotice): void => notices.notify(n);
  // Did the last run stop cleanly? The marker goes as a final step, added after the lock's release so it runs
  // before it (a stage runs its steps last-added first), once every store's flush is done.
  const runMarker = new RunMarker(dataDir);
  const run = runMarker.begin();
  if (run.notice) notices.notify(run.notice);
  if (run.problem) problems.report({ id: 'run-marker', message: run.problem });
  lifetime.add({ name: 'remove the running marker', stage: 'final', run: () => runMarker.end() });

  // Traces, when an endpoint is set: sent last, after everything that makes spans has stopped.
  const otlpEndpoint = ports.otlpEndpoint ?? savedEndpoint(definitions.settings);
  const tracerFor = (endpoint: string | undefined) =>
    startTelemetry({
      endpoint,
      version: ports.version,
      mode: ports.mode,
      ...(ports.otlpDelayMs !== undefined ? { scheduledDelayMs: ports.otlpDelayMs } : {}),
      log: (level, text) => logger.log(level, 'telemetry', text),
      notify,
    });
  // Installed once, switched in place: Settings → Tracing applies without a restart.
  const telemetry = new LiveTelemetry(tracerFor(otlpEndpoint));
  const telemetrySetting = new TelemetrySetting(
    definitions,
    { endpoint: otlpEndpoint, overridden: ports.otlpEndpoint !== undefined },
    (endpoint) => {
      if (endpoint === undefined) logger.log('info', 'telemetry', 'traces are off');
      // The replaced tracer's flush is the shutdown's to await (LiveTelemetry keeps it); a failed one was reported.
      void telemetry.replace(tracerFor(endpoint));
    },
  );
  lifetime.add({ name: 'send traces', stage: 'flush', timeoutMs: 5000, run: () => telemetry.shutdown() });

  const gate = new LaunchGate(credentials, definitions);
  const legacy = gate.legacyNotice();
  if (legacy) notices.notify(legacy);

  const processes = new ProcessRecord(dataDir, { onNotice: notify });
  const leftovers = processes.load();
  if (leftovers > 0) notices.notify(leftoversNotice(leftovers));
  // After the sessions are released, so the file ends up holding only groups that outlived their release.
  lifetime.add({ name: 'write the process record', stage: 'flush', run: () => processes.flush() });

  // Every transport is tracked: none is opened once we are closing, and none outlives the sessions' release.
  const tracker = createTransportTracker();
  lifetime.add({ name: 'refuse new connections', stage: 'stop', run: () => tracker.refuseNew(CLOSING) });
  lifetime.add({
    name: 'end leftover server processes',
    stage: 'release',
    run: async () => {
      const killed = await tracker.killRemaining();
      if (killed.length > 0) logger.warn('shutdown', `ended ${killed.length} server process group(s) still running at shutdown`);
    },
  });

  // What servers may ask of the person: consent and roots kept per server, questions through one broker, sampling,
  // traffic and the task receiver per Client; the hooks install them on every session's Client.
  const featureStore = new FeatureStore(dataDir);
  const urlOpener = ports.urlOpener ?? new PrintingUrlOpener();
  const elicitation = createElicitationBroker({
    events,
    presence,
    config: (id) => definitions.config(id),
    opener: urlOpener,
    consent: (id) => featureStore.consent(id),
  });
  const clientFeatures = new ClientFeatures(
    { events, presence, sessionEvents, credentials, config: (id) => definitions.config(id), elicitation },
    featureStore,
  );
  const featuresNotice = clientFeatures.notice();
  if (featuresNotice) notices.notify(featuresNotice);
  lifetime.add({ name: 'close client features', stage: 'close', timeoutMs: 1000, run: () => clientFeatures.dispose() });
  lifetime.add({ name: 'decline elicitations', stage: 'close', timeoutMs: 500, run: () => elicitation.cancelAll(CLOSING) });
  const running = new RunningCalls();
  const hooks = new InteractionHooks({
    sessionEvents,
    elicitation,
    features: clientFeatures,
    relayFor: (serverId) => running.relayFor(serverId),
  });

  const auth = new AuthManager({
    host: {
      events,
      credentials,
      config: (id) => definitions.config(id),
      sessions: {
        connect: (id) => sessions.connect(id),
        disconnect: (id) => sessions.disconnect(id),
        status: (id) => sessions.status(id),
      },
    },
    opener: ports.auth.opener,
    listen: ports.auth.listen,
    ...(ports.auth.adopt !== undefined ? { adopt: ports.auth.adopt } : {}),
    log:
      ports.auth.log ??
      ((id, level, text) => logger.log(level === 'info' ? 'info' : level === 'error' ? 'error' : 'warn', `auth ${id}`, text)),
    ...(ports.auth.flowTimeoutMs !== undefined ? { flowTimeoutMs: ports.auth.flowTimeoutMs } : {}),
  });

  const sessionHost: SessionHost = {
    events,
    sessionEvents,
    configs: () => definitions.configs(),
    closing: () => lifetime.closing,
    isLaunchApproved: (config) => gate.isApproved(config),
    launchRefusal: (config) => gate.refusal(config),
    verifyLaunch: (config, env) => gate.verify(config, env),
    interaction: hooks,
    trafficSink: clientFeatures,
    processes,
  };
  // The transport pipeline's opening layers (in-process, tracker, auth); the session manager adds the rest.
  const transportParts = { ...(ports.inProcess ? { inProcess: ports.inProcess } : {}), tracker, auth, telemetry };
  const loginPath = ports.loginPath;
  const sessions: SessionController =
    ports.createSessions?.(sessionHost, transportPipeline(ports.transports, transportParts)) ??
    new SessionManager(sessionHost, {
      credentials,
      createTransport: ports.transports,
      transports: transportParts,
      ...(loginPath ? { loginPath } : {}),
      discoveryCache: new DiscoveryCache({ file: join(dataDir, DISCOVERY_CACHE_FILE), onNotice: notify }),
      clientInfo,
      dataDir,
    });
  // The flushes need their share of the time: the sessions get what is left minus a reserve.
  lifetime.add({ name: 'release sessions', stage: 'close', leaveMs: SESSIONS_LEAVE_MS, run: () => sessions.shutdown() });

  const interaction = new Interaction({
    events,
    problems,
    sessionEvents,
    config: (id) => definitions.config(id),
    client: (id) => sessions.client(id),
    elicitation,
    urlOpener,
  });
  instrumentResources(interaction.resources, telemetry);

  const mcpEvents = new EventsService(
    { events, sessionEvents, sessions, credentials, config: (id) => definitions.config(id) },
    {
      dir: join(dataDir, 'events'),
      ...(ports.eventsTuning ? { tuning: ports.eventsTuning } : {}),
      log: (id, level, text) => sessions.note?.(id, level, text),
      report: problems.report,
      // The Overview's capabilities include `events` once the listing found some (servers is built below).
      onSupportChanged: () => servers.publish(),
      telemetry,
    },
  );
  mcpEvents.start();
  // Event streams are cancelled while their sessions are still up; the feed and positions are written last.
  lifetime.add({ name: 'close event streams', stage: 'stop', timeoutMs: 3000, run: () => mcpEvents.stop() });
  lifetime.add({ name: 'write the event feed', stage: 'flush', timeoutMs: 5000, run: () => mcpEvents.shutdown() });

  const pins = new JsonFilePinStore(dataDir, { onNotice: notify });
  lifetime.add({ name: 'write tool approvals', stage: 'flush', run: () => pins.flush() });
  // Skill approvals bind to manifest digests the way tool pins bind to definitions: same store shape, own file.
  const skillApprovals = new JsonFilePinStore(dataDir, { fileName: 'skill-approvals.json', onNotice: notify });
  lifetime.add({ name: 'write skill approvals', stage: 'flush', run: () => skillApprovals.flush() });
  const skills = new SkillsService({
    config: (id) => definitions.config(id),
    client: (id) => sessions.client(id),
    approvals: skillApprovals,
  });
  const catalog = createHostCatalog(
    {
      events,
      sessionEvents,
      sessions,
      configs: () => definitions.configs(),
      eventTypeNames: (id) => mcpEvents.knownTypes(id)?.map((t) => t.name),
      launchRefusal: (config) => gate.refusal(config),
    },
    dataDir,
    pins,
  );
  lifetime.add({ name: 'stop the catalog', stage: 'close', timeoutMs: 500, run: () => catalog.dispose() });

  const calls = createHostCalls({
    events,
    config: (id) => definitions.config(id),
    sessions,
    catalog,
    dataDir,
    notify,
    elicitation,
    features: clientFeatures,
    running,
    closing: () => lifetime.closing,
  });
  instrumentCalls(calls, telemetry);
  // Calls first: tasks the app walks away from are cancelled best-effort while sessions are still up.
  lifetime.add({ name: 'cancel calls', stage: 'close', timeoutMs: 3000, run: () => calls.dispose() });
  lifetime.add({ name: 'write call history', stage: 'flush', run: () => calls.flushHistory() });

  const gateway = new Gateway(
    {
      events,
      presence,
      problems,
      credentials,
      sessions,
      catalog,
      calls,
      interaction,
      skills,
      configs: () => definitions.configs(),
      config: (id) => definitions.config(id),
      isLaunchApproved: (config) => gate.isApproved(config),
      launchRefusal: (config) => gate.refusal(config),
      notify,
      // The person's dialogs for the input requests of a relayed task that its gateway client cannot take.
      taskInput: {
        elicit: async (serverId, params, signal) => {
          const request = parseElicitParams(params);
          return request ? elicitation.request(serverId, request, signal) : { action: 'decline' };
        },
        sample: (id, params, signal) => clientFeatures.sample(id, params, signal),
        listRoots: (id) => clientFeatures.listRoots(id),
        consentDenied: (id) => clientFeatures.consentDenied(id),
      },
      relayServers: () =>
        relayServerIds({
          serverIds: () => definitions.configs().map((c) => c.id),
          relaysInUse: () => mcpEvents.relaysRead(),
          offers: (id, name) => catalog.offers(id, name),
        }),
    },
    {
      dataDir,
      version: ports.version,
      ...(ports.gatewayLauncher ? { launcher: ports.gatewayLauncher } : {}),
      ...(ports.gatewayAdmission ? { admission: ports.gatewayAdmission } : {}),
      ...(ports.gatewayDoor ? { door: ports.gatewayDoor } : {}),
      traceRequest: gatewayRequestTracer(telemetry),
    },
  );
  // The gateway is a front door: it closes first, so no new call arrives while calls are cancelled.
  lifetime.add({ name: 'stop the gateway', stage: 'stop', run: () => gateway.shutdown() });

  const apps = createHostApps({
    events,
    sessionEvents,
    config: (id) => definitions.config(id),
    configs: () => definitions.configs(),
    sessions,
    catalog,
    calls,
    opener: interaction.urlOpener,
    gatewayPort: () => gateway.status().port,
    dataDir,
    report: problems.report,
    sampling: clientFeatures.sampling,
  });
  lifetime.add({ name: 'close MCP Apps', stage: 'close', timeoutMs: 1000, run: () => apps.dispose() });

  const servers = new ServerDirectory({
    events,
    credentials,
    definitions,
    gate,
    sessions,
    ...(ports.demoServer ? { demoServer: ports.demoServer } : {}),
    workDir: (config) => serverWorkDir(dataDir, config),
    removed: (config) =>
      removeServerFolder(dataDir, config.id).then(
        (outcome) => {
          // Not provably Switchboard's (no mark) and not empty: it stays, and the person hears where it is.
          if (outcome === 'kept')
            notify({
              id: `server-folder-${config.id}`,
              level: 'info',
              message: `The folder ${defaultServerFolder(dataDir, config.id)} was kept: Switchboard cannot tell it made it (it has no mark, or is a link) and it is not an empty folder. Remove it by hand if you no longer need it.`,
            });
        },
        (err: unknown) =>
          notify({ id: `server-folder-${config.id}`, level: 'warning', message: err instanceof Error ? err.message : String(err) }),
      ),
    hasEvents: (id) => mcpEvents.knownTypes(id) !== undefined,
  });
  const imports = new ServerImport({ credentials, definitions, gate, directory: servers });
  const featureSettings = new FeatureSettings({
    events,
    config: (id) => definitions.config(id),
    status: (id) => sessions.status(id),
    update: (id, input) => servers.update(id, input),
    elicitation,
    features: clientFeatures,
  });

  const registryLoginPath = ports.registry?.loginPath ?? loginPath;
  const registry = new RegistryService(
    {
      events,
      credentials,
      configs: () => definitions.configs(),
      config: (id) => definitions.config(id),
      add: (input) => servers.add(input),
      update: (id, input) => servers.update(id, input),
      get: (id) => servers.get(id),
      interaction,
    },
    {
      dir: dataDir,
      ...(registryLoginPath ? { loginPath: registryLoginPath } : {}),
      ...(ports.registry?.localPackages !== undefined ? { localPackages: ports.registry.localPackages } : {}),
      ...(ports.registry?.timeoutMs !== undefined ? { timeoutMs: ports.registry.timeoutMs } : {}),
      ...(ports.registry?.fetch !== undefined ? { fetch: ports.registry.fetch } : {}),
      onNotice: (notice) => {
        logger.warn('registry', notice.message);
        notify(notice);
      },
    },
  );

  const isBuiltin = ports.isBuiltin;
  const doctor: DoctorOptions = {
    ...(loginPath ? { loginPath } : {}),
    clientInfo,
    authFor: (config) => auth.transportAuth(config),
    ...(isBuiltin
      ? {
          builtin: (command: string) =>
            isBuiltin(command)
              ? transportPipeline(ports.transports, { ...(ports.inProcess ? { inProcess: ports.inProcess } : {}), tracker })
              : undefined,
        }
      : {}),
    ...(ports.doctorLookup ? { lookup: ports.doctorLookup } : {}),
    launchConfig: (config) => withLaunchWorkDir(dataDir, config),
    workDir: (config) => serverWorkDir(dataDir, config),
  };

  logger.info('app', `Switchboard ${ports.version} (${ports.mode}) started with data folder ${dataDir}`);
  return new Host({
    mode: ports.mode,
    version: ports.version,
    logFile: logger.file ?? null,
    lifetime,
    events,
    presence,
    problems,
    sessionEvents,
    notices,
    credentials,
    definitions,
    gate,
    processes,
    clientFeatures,
    featureSettings,
    interaction,
    auth,
    sessions,
    mcpEvents,
    pins,
    catalog,
    calls,
    gateway,
    apps,
    servers,
    imports,
    registry,
    skills,
    doctor,
    telemetrySetting,
  });
}
