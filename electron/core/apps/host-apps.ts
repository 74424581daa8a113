// Builds the core's apps service: definitions, events, session clients, the catalog, the call service, the safe URL
// opener, the gateway's port (which no app may reach) and a grants file next to the settings. Removing a server ends
// its launches and grants.
import type { ServerConfig } from '../../../shared/config.js';
import type { UrlOpener } from '../elicitation/url-opener.js';
import type { EventBus } from '../event-bus.js';
import type { ReportProblem } from '../problems.js';
import type { CallService } from '../calls/call-service.js';
import type { SessionController } from '../sessions/session-controller.js';
import type { SessionEvents } from '../sessions/session-events.js';
import type { SamplingBroker } from '../sampling/sampling-broker.js';
import { AppsService, type AppsCatalog } from './apps-service.js';

/** What the core's apps service is built from. */
export interface CoreAppsDeps {
  events: EventBus;
  sessionEvents: SessionEvents;
  config(id: string): ServerConfig;
  configs(): readonly ServerConfig[];
  sessions: Pick<SessionController, 'client'>;
  catalog: AppsCatalog;
  calls: CallService;
  opener: UrlOpener;
  /** The gateway's listening port, when it listens. */
  gatewayPort(): number | undefined;
  dataDir: string;
  /** Where the apps' stores report problems. */
  report: ReportProblem;
  /** The answer-by-hand sampling queue an app's sampling requests join. */
  sampling?: Pick<SamplingBroker, 'request' | 'cancelLaunch'>;
}

/** The core's apps service. */
export function createHostApps(deps: CoreAppsDeps): AppsService {
  const apps = new AppsService({
    events: deps.events,
    config: (id) => deps.config(id),
    client: (id) => deps.sessions.client(id),
    catalog: () => deps.catalog,
    calls: deps.calls,
    opener: () => deps.opener,
    serverIds: () => deps.configs().map((c) => c.id),
    reservedPorts: () => {
      const port = deps.gatewayPort();
      return port !== undefined && port > 0 ? [port] : [];
    },
    dataDir: deps.dataDir,
    report: deps.report,
    ...(deps.sampling ? { sampling: deps.sampling } : {}),
  });
  deps.sessionEvents.subscribe((event) => {
    if (event.type === 'removed') apps.forgetServer(event.id);
    else if (event.type === 'resourceUpdated') apps.invalidate(event.id, event.uri);
    else if (
      event.type === 'connected' ||
      event.type === 'closed' ||
      event.type === 'resourcesListChanged' ||
      event.type === 'toolsListChanged'
    )
      apps.invalidate(event.id);
  });
  return apps;
}
