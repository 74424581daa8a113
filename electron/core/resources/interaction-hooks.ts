// The hooks the session manager installs on every fresh Client: elicitation (legacy and MRTR rounds, relayed to a
// gateway client while its call is the server's only one), resource and elicitation notifications, the MCP Apps
// capability, then the client features (sampling, roots, task receiver). Built before the sessions.
import type { Client } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/config.js';
import { APPS_CLIENT_CAPABILITIES } from '../apps/capability.js';
import type { CallRelay } from '../calls/call-service.js';
import type { ElicitationBroker } from '../elicitation/elicitation-broker.js';
import type { ClientHooks } from '../sessions/session-controller.js';
import type { SessionEvents } from '../sessions/session-events.js';
import { installInteractionHooks } from './interaction.js';

/** What the hooks report into. */
export interface InteractionHooksDeps {
  sessionEvents: SessionEvents;
  elicitation: ElicitationBroker;
  /** Sampling, roots and the task receiver (installed after elicitation). */
  features: {
    prepareClient(client: Client, config: ServerConfig, relayFor?: (serverId: string) => CallRelay | undefined): void;
    closed(id: string): void;
  };
  /** The relay of the server's only running call, when it has one. */
  relayFor(serverId: string): CallRelay | undefined;
}

/** Per-Client hooks of every session. */
export class InteractionHooks implements ClientHooks {
  readonly #d: InteractionHooksDeps;

  constructor(deps: InteractionHooksDeps) {
    this.#d = deps;
  }

  /** Installs elicitation and notification handlers on a fresh Client before it connects. */
  prepare(client: Client, config: ServerConfig): void {
    installInteractionHooks(client, config, {
      sessionEvents: this.#d.sessionEvents,
      elicitation: this.#d.elicitation,
      relay: (serverId) => this.#d.relayFor(serverId),
    });
    // This host renders MCP Apps: servers that check the capability then offer their UI-enabled tools.
    client.registerCapabilities(APPS_CLIENT_CAPABILITIES);
    this.#d.features.prepareClient(client, config, (serverId) => this.#d.relayFor(serverId));
  }

  /** A session connected: its resource subscriptions are re-established on the `connected` session event (only there). */
  connected(): void {}

  /** A session closed; its pending elicitations are cancelled. */
  closed(id: string): void {
    this.#d.elicitation.cancelServer(id, 'The server’s session closed');
    this.#d.features.closed(id);
  }
}
