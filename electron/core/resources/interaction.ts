// Interaction with servers beyond tools: the resource/prompt service, the elicitation broker, the URL opener port,
// and the hooks the session manager installs on each new Client.
import type { Client, ClientCapabilities, ElicitResult } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/config.js';
import { APPS_CLIENT_CAPABILITIES } from '../apps/capability.js';
import type { CallRelay } from '../calls/call-service.js';
import { keepProgressBeforeResponse } from '../calls/progress-order.js';
import { ElicitationBroker } from '../elicitation/elicitation-broker.js';
import { PrintingUrlOpener, type UrlOpener } from '../elicitation/url-opener.js';
import type { EventBus } from '../event-bus.js';
import type { ClientHooks } from '../sessions/session-controller.js';
import type { SessionEvents } from '../sessions/session-events.js';
import { ResourceService } from './resource-service.js';

/** What this feature is built from. */
export interface InteractionDeps {
  readonly events: EventBus;
  /** Sampling, roots, task receiver and consent (installed on each Client after elicitation). */
  readonly clientFeatures: {
    prepareClient(client: Client, config: ServerConfig): void;
    closed(id: string): void;
    store: { consent(id: string): 'ask' | 'allow' | 'deny' };
  };
  readonly sessionEvents: SessionEvents;
  /** A server's connected client (connects when needed). */
  client(id: string): Promise<Client>;
  config(id: string): ServerConfig;
  /** Opens URLs the person consented to in URL-mode elicitations (the app's safe opener); default: printed. */
  readonly urlOpener?: UrlOpener;
  /** The relay of the server's only running call, when it has one (a gateway client answers instead of the dialog). */
  relayFor(serverId: string): CallRelay | undefined;
}

/** Resources, prompts, completion and elicitation for every server of one Host. */
export class Interaction implements ClientHooks {
  readonly resources: ResourceService;
  readonly elicitation: ElicitationBroker;
  readonly #sessionEvents: SessionEvents;
  readonly #host: InteractionDeps;
  readonly #opener: UrlOpener;

  constructor(host: InteractionDeps) {
    this.#sessionEvents = host.sessionEvents;
    this.#host = host;
    this.#opener = host.urlOpener ?? new PrintingUrlOpener();
    this.resources = new ResourceService({
      config: (id) => host.config(id),
      client: (id) => host.client(id),
    });
    this.elicitation = new ElicitationBroker({
      events: host.events,
      enabled: (id) => {
        try {
          return host.config(id).elicitation;
        } catch {
          return false;
        }
      },
      serverName: (id) => {
        try {
          return host.config(id).name;
        } catch {
          return id;
        }
      },
      timeoutMs: (id) => {
        try {
          return host.config(id).timeouts.elicitationSecs * 1000;
        } catch {
          return 300_000;
        }
      },
      opener: () => this.#opener,
      consent: (id) => host.clientFeatures.store.consent(id),
    });
    host.sessionEvents.subscribe((event) => {
      switch (event.type) {
        case 'resourceUpdated':
          host.events.emit('resources.updated', { id: event.id, uri: event.uri });
          break;
        case 'resourcesListChanged':
          host.events.emit('resources.listChanged', { id: event.id });
          break;
        case 'promptsListChanged':
          host.events.emit('prompts.listChanged', { id: event.id });
          break;
        case 'closed':
          this.elicitation.cancelServer(event.id, 'The server’s session closed');
          break;
        case 'removed':
          this.elicitation.cancelServer(event.id, 'The server was removed');
          this.resources.forget(event.id);
          break;
        default:
          break;
      }
    });
  }

  /** Session hook: installs elicitation and notification handlers on a fresh Client before it connects. */
  prepare(client: Client, config: ServerConfig): void {
    installInteractionHooks(client, config, {
      sessionEvents: this.#sessionEvents,
      elicitation: this.elicitation,
      relay: (serverId) => this.#host.relayFor(serverId),
    });
    // This host renders MCP Apps: servers that check the capability then offer their UI-enabled tools.
    client.registerCapabilities(APPS_CLIENT_CAPABILITIES);
    this.#host.clientFeatures.prepareClient(client, config);
  }

  /**
   * Session hook: a session connected; re-establish its resource subscriptions. (Only here: the `connected`
   * session event must not do it too, or a 2026-07-28 session gets two listen streams and every update twice.)
   */
  connected(id: string, client: Client): void {
    void this.resources.resubscribe(id, client);
  }

  /** Session hook: a session closed; its pending elicitations are cancelled. */
  closed(id: string): void {
    this.elicitation.cancelServer(id, 'The server’s session closed');
    this.#host.clientFeatures.closed(id);
  }

  /** The opener in use (tests and the headless shell read what it recorded). */
  get urlOpener(): UrlOpener {
    return this.#opener;
  }
}

/** Client capabilities for a server: form (SEP-1034 defaults applied) and URL elicitation when opted in. */
export function interactionCapabilities(config: ServerConfig): ClientCapabilities {
  return config.elicitation ? { elicitation: { form: { applyDefaults: true }, url: {} } } : {};
}

/** What the hooks report into. */
export interface InteractionHookTargets {
  /** Session-level events hub (host.sessionEvents). */
  sessionEvents: SessionEvents;
  /** The broker that answers elicitations. */
  elicitation: ElicitationBroker;
  /** The relay of the server's only running call, when it has one (a gateway client answers instead of the dialog). */
  relay?: (serverId: string) => CallRelay | undefined;
}

/**
 * Installs, on a fresh Client before connect, the elicitation capability and handler (legacy elicitation/create
 * and MRTR rounds share it) and forwards resources/updated and elicitation/complete (the session forwards list changes).
 */
export function installInteractionHooks(client: Client, config: ServerConfig, targets: InteractionHookTargets): void {
  const id = config.id;
  keepProgressBeforeResponse(client);
  const caps = interactionCapabilities(config);
  if (caps.elicitation) {
    client.registerCapabilities(caps);
    client.setRequestHandler('elicitation/create', (request, ctx) => {
      const relayed = targets.relay?.(id)?.elicit;
      // The client's answer is checked against the ElicitResult schema by the SDK before it is sent.
      if (relayed) return relayed(id, request.params as Record<string, unknown>, ctx.mcpReq.signal) as Promise<ElicitResult>;
      return targets.elicitation.request(id, request.params, ctx.mcpReq.signal);
    });
  }
  client.setNotificationHandler('notifications/message', (n) => targets.relay?.(id)?.log?.(n.params as Record<string, unknown>));
  client.setNotificationHandler('notifications/resources/updated', (n) =>
    targets.sessionEvents.emit({ type: 'resourceUpdated', id, uri: n.params.uri }),
  );
  client.setNotificationHandler('notifications/elicitation/complete', (n) => targets.elicitation.complete(id, n.params.elicitationId));
}
