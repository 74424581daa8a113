// The elicitation broker of the core: its per-server switches, names and time limits read from the definitions, the
// consent from the client features' store, consented URLs opened by the shell's opener.
import type { ServerConfig } from '../../../shared/config.js';
import type { EventBus } from '../event-bus.js';
import type { PresencePort } from '../presence.js';
import { ElicitationBroker } from './elicitation-broker.js';
import type { UrlOpener } from './url-opener.js';

/** What the core's broker reads. */
export interface DefinitionsBrokerDeps {
  events: EventBus;
  /** Whether the person can see a Switchboard window (declined at once without one). */
  presence: PresencePort;
  config(id: string): ServerConfig;
  opener: UrlOpener;
  consent(id: string): 'ask' | 'allow' | 'deny';
}

/** The broker for every server of the core (a removed server counts as off). */
export function createElicitationBroker(deps: DefinitionsBrokerDeps): ElicitationBroker {
  const read = <T>(id: string, pick: (c: ServerConfig) => T, fallback: T): T => {
    try {
      return pick(deps.config(id));
    } catch {
      return fallback;
    }
  };
  return new ElicitationBroker({
    events: deps.events,
    presence: deps.presence,
    enabled: (id) => read(id, (c) => c.elicitation, false),
    serverName: (id) => read(id, (c) => c.name, id),
    timeoutMs: (id) => read(id, (c) => c.timeouts.elicitationSecs * 1000, 300_000),
    opener: () => deps.opener,
    consent: (id) => deps.consent(id),
  });
}
