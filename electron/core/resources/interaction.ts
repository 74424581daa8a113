// Interaction with servers beyond tools: the resource/prompt service, the elicitation broker and the URL opener port
// (the hooks the session manager installs on each new Client are InteractionHooks; their installer is here).
import type { Client, ClientCapabilities, ElicitResult } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/config.js';
import type { CallRelay } from '../calls/call-service.js';
import { deferResponseDispatch } from '../sdk/seams.js';
import type { ElicitationBroker } from '../elicitation/elicitation-broker.js';
import type { UrlOpener } from '../elicitation/url-opener.js';
import type { EventBus } from '../event-bus.js';
import type { ReportProblem } from '../problems.js';
import { sanitizeText, truncate } from '../text.js';
import type { SessionEvents } from '../sessions/session-events.js';
import { ResourceService } from './resource-service.js';

/** What this feature is built from. */
export interface InteractionDeps {
  readonly events: EventBus;
  /** Where a lost resource subscription is reported. */
  readonly problems: { readonly report: ReportProblem };
  readonly sessionEvents: SessionEvents;
  /** A server's connected client (connects when needed). */
  client(id: string): Promise<Client>;
  config(id: string): ServerConfig;
  /** The elicitation broker (the per-Client hooks send it the servers' questions). */
  readonly elicitation: ElicitationBroker;
  /** Opens URLs the person consented to (the app's safe opener; headless prints them). */
  readonly urlOpener: UrlOpener;
}

/** Resources, prompts, completion and elicitation for every server of the core. */
export class Interaction {
  readonly resources: ResourceService;
  readonly elicitation: ElicitationBroker;
  readonly #opener: UrlOpener;

  constructor(host: InteractionDeps) {
    this.#opener = host.urlOpener;
    this.elicitation = host.elicitation;
    this.resources = new ResourceService({
      config: (id) => host.config(id),
      client: (id) => host.client(id),
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
    host.sessionEvents.subscribe((event) => {
      switch (event.type) {
        case 'connected':
          // A session connected: re-establish its resource subscriptions. (Only here: the per-Client hooks must not
          // do it too, or a 2026-07-28 session gets two listen streams and every update twice.)
          void this.resources.resubscribe(event.id, event.client);
          break;
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
