// The Host's "optional interaction and resources" feature (seed 000): the resource/prompt service, the
// elicitation broker, the URL opener port, and the hooks the session manager installs on each new Client.
import type { Client, ClientCapabilities, ElicitResult } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/config.js';
import { APPS_CLIENT_CAPABILITIES } from '../apps/capability.js';
import type { CallRelay } from '../calls/call-service.js';
import { deferResponseDispatch } from '../sdk/seams.js';
import { ElicitationBroker } from '../elicitation/elicitation-broker.js';
import { PrintingUrlOpener, type UrlOpener } from '../elicitation/url-opener.js';
import type { EventBus } from '../event-bus.js';
import type { PresencePort } from '../presence.js';
import type { ReportProblem } from '../problems.js';
import { sanitizeText, truncate } from '../text.js';
import type { ClientHooks, SessionController } from '../sessions/session-controller.js';
import type { SessionEvents } from '../sessions/session-events.js';
import { ResourceService } from './resource-service.js';

/** The parts of the Host this feature uses (read lazily: the Host builds its sessions after this). */
export interface InteractionHost {
  readonly events: EventBus;
  readonly problems: { readonly report: ReportProblem };
  readonly presence: PresencePort;
  /** Sampling, roots, task receiver and consent (installed on each Client after elicitation). */
  readonly clientFeatures?: {
    prepareClient(client: Client, config: ServerConfig): void;
    closed(id: string): void;
    store: { consent(id: string): 'ask' | 'allow' | 'deny' };
  };
  readonly sessionEvents: SessionEvents;
  readonly sessions: SessionController;
  config(id: string): ServerConfig;
}

type WithClient = SessionController & { client?: (id: string) => Promise<Client> };

/** Resources, prompts, completion and elicitation for every server of one Host. */
export class Interaction implements ClientHooks {
  readonly resources: ResourceService;
  readonly elicitation: ElicitationBroker;
  readonly #sessionEvents: SessionEvents;
  readonly #host: InteractionHost;
  #opener: UrlOpener = new PrintingUrlOpener();
  #relay: ((serverId: string) => CallRelay | undefined) | undefined;

  constructor(host: InteractionHost) {
    this.#sessionEvents = host.sessionEvents;
    this.#host = host;
    this.resources = new ResourceService({
      config: (id) => host.config(id),
      client: (id) => {
        const sessions = host.sessions as WithClient;
        if (!sessions.client) return Promise.reject(new Error('Not connected'));
        return sessions.client(id);
      },
      lost: (id, uri, reason) => {
        host.events.emit('resources.subscriptionLost', { id, uri, reason });
        host.problems.report({
          id: 'resource-subscription-lost',
          serverId: id,
          notify: true,
          message: `The subscription to ${truncate(sanitizeText(uri), 200)} on ${id} was lost when the server reconnected (${reason}); subscribe again to follow its changes.`,
        });
      },
    });
    this.elicitation = new ElicitationBroker({
      events: host.events,
      presence: host.presence,
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
      consent: (id) => host.clientFeatures?.store.consent(id) ?? 'allow',
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
      relay: (serverId) => this.#relay?.(serverId),
    });
    // This host renders MCP Apps: servers that check the capability then offer their UI-enabled tools.
    client.registerCapabilities(APPS_CLIENT_CAPABILITIES);
    this.#host.clientFeatures?.prepareClient(client, config);
  }

  /** Where a server's requests and log messages go while a relayed call (a gateway client's) is its only call. */
  setCallRelay(relay: (serverId: string) => CallRelay | undefined): void {
    this.#relay = relay;
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
    this.#host.clientFeatures?.closed(id);
  }

  /** Injects the opener for consented URL elicitations (the app's safe browser opener; headless prints). */
  setUrlOpener(opener: UrlOpener): void {
    this.#opener = opener;
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
  // A request's last progress notification stays ahead of its response (see the seam).
  deferResponseDispatch(client);
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
