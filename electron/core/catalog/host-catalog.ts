// Builds the Host's catalog from its parts: events, session events, definitions, the session controller's client
// (when the controller offers one) and a pin file next to the settings.
import type { AppError } from '../../../shared/errors.js';
import type { EventBus } from '../event-bus.js';
import type { ServerConfig } from '../../../shared/config.js';
import type { SessionController } from '../sessions/session-controller.js';
import type { SessionEvents } from '../sessions/session-events.js';
import { Catalog } from './catalog.js';
import { JsonFilePinStore, type PinStore } from './pins.js';

/** The parts of the Host the catalog uses. */
export interface CatalogHost {
  readonly events: EventBus;
  readonly sessionEvents: SessionEvents;
  readonly sessions: SessionController;
  configs(): readonly ServerConfig[];
  /** Names of the event types a server offers, when listed. */
  eventTypeNames?(id: string): readonly string[] | undefined;
  /** Why a server's launch may not start now (the launch gate): lost secrets are named on calls to its tools. */
  launchRefusal?(config: ServerConfig): AppError | undefined;
}

/** The catalog of a Host; tool approvals are kept in `pins` (default: `<settingsDir>/tool-pins.json`). */
export function createHostCatalog(host: CatalogHost, settingsDir: string, pins: PinStore = new JsonFilePinStore(settingsDir)): Catalog {
  const sessions = host.sessions;
  return new Catalog({
    events: host.events,
    sessionEvents: host.sessionEvents,
    configs: () => host.configs(),
    connect: (id: string) => sessions.client(id),
    clearResponseCache: (id: string) => sessions.clearResponseCache(id),
    pins,
    eventTypes: (id: string) => host.eventTypeNames?.(id),
    ...(host.launchRefusal ? { launchRefusal: (config: ServerConfig) => host.launchRefusal!(config) } : {}),
  });
}
