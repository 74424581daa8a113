// What servers may ask of Switchboard beyond tools, per server: the protocol view's traffic log, sampling answered
// by hand, roots (folders the person shares), the consent to be asked questions, and the 2025-11-25 task receiver
// that lets a server's sampling and elicitation requests run as client-side tasks. All opt-in per server and off
// by default; capabilities are advertised only for what is on.
import type { Client, ClientCapabilities, JSONRPCMessage } from '@modelcontextprotocol/client';
import { bindTaskReceiver, type TaskReceiverBinding } from '@modelcontextprotocol/ext-tasks/receiver';
import type { ServerConfig } from '../../../shared/config.js';
import type { AppNotice } from '../../../shared/contract.js';
import { CONSENT_DENIED_MESSAGE, needsSettingMessage, type ClientFeature } from '../../../shared/domains/protocol-text.js';
import type { CallFeatureHooks, CallRelay } from '../calls/call-service.js';
import type { ElicitationBroker, ElicitParams } from '../elicitation/elicitation-broker.js';
import type { EventBus } from '../event-bus.js';
import type { PresencePort } from '../presence.js';
import type { CredentialStore } from '../ports.js';
import { SamplingBroker } from '../sampling/sampling-broker.js';
import type { SessionEvents } from '../sessions/session-events.js';
import type { FeatureStore } from './feature-store.js';
import { serverSecretValues } from './secret-values.js';
import { TrafficLog } from './traffic-log.js';
import type { TrafficSink } from './traffic-tap.js';

/** What the client features are built from (the contract's edits are FeatureSettings'). */
export interface ClientFeaturesHost {
  readonly events: EventBus;
  readonly presence: PresencePort;
  readonly sessionEvents: SessionEvents;
  readonly credentials: CredentialStore;
  config(id: string): ServerConfig;
  /** The elicitation broker (task-augmented elicitations go to it). */
  readonly elicitation: ElicitationBroker;
}

/** Requests a server makes that a setting may refuse, and the setting each needs. */
const GATED: Record<string, ClientFeature> = {
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
  'elicitation/create': 'elicitation',
};
/** Refused requests remembered per server (for the call that caused them). */
const MAX_REFUSALS = 20;

/** Sampling, roots, consent and traffic for every server of one Host. */
export class ClientFeatures implements TrafficSink, CallFeatureHooks {
  readonly traffic: TrafficLog;
  readonly sampling: SamplingBroker;
  readonly store: FeatureStore;
  readonly #host: ClientFeaturesHost;
  readonly #clients = new Map<string, Client>();
  readonly #receivers = new Map<Client, TaskReceiverBinding>();
  /** Refused requests per server, each with its place in the order of all refusals (see refusalMark). */
  readonly #refused = new Map<string, { feature: ClientFeature | 'consent'; seq: number }[]>();
  #refusalSeq = 0;

  constructor(host: ClientFeaturesHost, store: FeatureStore) {
    this.#host = host;
    this.store = store;
    this.traffic = new TrafficLog({
      events: host.events,
      secretValues: async (id) => {
        try {
          return await serverSecretValues(host.credentials, host.config(id));
        } catch {
          return [];
        }
      },
    });
    this.sampling = new SamplingBroker({
      events: host.events,
      presence: host.presence,
      serverName: (id) => this.#safe(() => host.config(id).name, id),
      timeoutMs: (id) => this.#safe(() => host.config(id).timeouts.elicitationSecs * 1000, 300_000),
    });
    host.sessionEvents.subscribe((event) => {
      if (event.type === 'removed') {
        this.sampling.cancelServer(event.id, 'The server was removed');
        this.traffic.forget(event.id);
        this.store.forget(event.id);
        this.#refused.delete(event.id);
      }
    });
  }

  /** A notice for the person when the features file had to be moved aside. */
  notice(): AppNotice | undefined {
    const q = this.store.quarantined;
    return q
      ? {
          id: 'client-features-corrupt',
          level: 'warning',
          message: `The client features file was unreadable (${q.reason}) and was moved to ${q.backup}.`,
        }
      : undefined;
  }

  // --- traffic sink (the transport tap) ---

  prepare(serverId: string): Promise<void> {
    return this.traffic.prepare(serverId);
  }

  record(serverId: string, direction: 'out' | 'in', message: JSONRPCMessage, time: number): void {
    this.traffic.record(serverId, direction, message, time);
    if (direction !== 'in') return;
    const m = message as { method?: unknown; id?: unknown };
    const feature = typeof m.method === 'string' && m.id !== undefined ? GATED[m.method] : undefined;
    if (!feature) return;
    const refusedBy = this.#refusal(serverId, feature);
    if (!refusedBy) return;
    const list = this.#refused.get(serverId) ?? [];
    list.push({ feature: refusedBy, seq: ++this.#refusalSeq });
    if (list.length > MAX_REFUSALS) list.splice(0, list.length - MAX_REFUSALS);
    this.#refused.set(serverId, list);
  }

  // --- call hooks ---

  consentDenied(serverId: string): boolean {
    return this.store.consent(serverId) === 'deny';
  }

  refusalMark(): number {
    return this.#refusalSeq;
  }

  refusals(serverId: string, since: number): string[] {
    const seen = new Set<string>();
    for (const r of this.#refused.get(serverId) ?? [])
      if (r.seq > since) seen.add(r.feature === 'consent' ? CONSENT_DENIED_MESSAGE : needsSettingMessage(r.feature));
    return [...seen];
  }

  sample(serverId: string, params: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>> {
    return this.sampling.request(serverId, params, signal);
  }

  listRoots(serverId: string): Record<string, unknown> {
    return { roots: this.store.roots(serverId) };
  }

  // --- per-Client hooks ---

  /** Client capabilities for what is turned on for this server (elicitation is declared by the interaction feature). */
  capabilities(config: ServerConfig): ClientCapabilities {
    return {
      ...(config.sampling ? { sampling: { tools: {} } } : {}),
      ...(config.roots ? { roots: { listChanged: true } } : {}),
    };
  }

  /**
   * Installs, on a fresh Client before connect (after the elicitation handler), the sampling and roots handlers and
   * capabilities, and — with tasks on — the 2025-11-25 task receiver for task-augmented sampling and elicitation.
   */
  prepareClient(client: Client, config: ServerConfig, relayFor?: (serverId: string) => CallRelay | undefined): void {
    const id = config.id;
    const caps = this.capabilities(config);
    if (Object.keys(caps).length > 0) client.registerCapabilities(caps);
    // A 2025-11-25 server's sampling request during a gateway client's call goes to that client when it can answer
    // (as its elicitations do); otherwise, and for the person's own calls, to the by-hand dialog. Either way only
    // with the server's sampling setting on.
    if (config.sampling)
      client.setRequestHandler('sampling/createMessage', (request, ctx) => {
        const params = request.params as Record<string, unknown>;
        const relayed = relayFor?.(id)?.sample;
        return (relayed ? relayed(params, ctx.mcpReq.signal) : this.sampling.request(id, params, ctx.mcpReq.signal)) as never;
      });
    if (config.roots) client.setRequestHandler('roots/list', () => ({ roots: this.store.roots(id) }));
    if (config.tasks && (config.sampling || config.elicitation)) {
      const broker = this.#host.elicitation;
      const binding = bindTaskReceiver(client, {
        methods: { 'sampling/createMessage': config.sampling, 'elicitation/create': config.elicitation },
        ttlMs: config.timeouts.elicitationSecs * 1000,
        pollIntervalMs: 1000,
        maxTasks: 100,
        ...(config.sampling
          ? { sampling: async (request, { signal }) => (await this.sampling.request(id, request.params, signal)) as never }
          : {}),
        ...(config.elicitation
          ? {
              elicitation: async (request, { signal }) =>
                (await broker.request(id, request.params as unknown as ElicitParams, signal)) as never,
            }
          : {}),
      });
      client.registerCapabilities({ tasks: binding.capabilities } as unknown as ClientCapabilities);
      this.#receivers.set(client, binding);
    }
    this.#clients.set(id, client);
  }

  /** A session closed: withdraw its sampling requests and release its task receiver. */
  closed(serverId: string): void {
    this.sampling.cancelServer(serverId, 'The server’s session closed');
    this.traffic.sessionClosed(serverId);
    const client = this.#clients.get(serverId);
    if (client) {
      this.#receivers.get(client)?.close();
      this.#receivers.delete(client);
    }
  }

  /** The live Client of a server's session, when it has one. */
  client(serverId: string): Client | undefined {
    return this.#clients.get(serverId);
  }

  /** Withdraws everything and writes the features file (shutdown). */
  async dispose(): Promise<void> {
    this.sampling.cancelAll('Switchboard is closing');
    this.traffic.flush();
    for (const binding of this.#receivers.values()) binding.close();
    this.#receivers.clear();
    await this.store.flush().catch(() => undefined);
  }

  /** Which setting refuses this request from this server, if one does. */
  #refusal(serverId: string, feature: ClientFeature): ClientFeature | 'consent' | undefined {
    let config: ServerConfig;
    try {
      config = this.#host.config(serverId);
    } catch {
      return undefined;
    }
    if (feature === 'elicitation') return !config.elicitation ? 'elicitation' : this.consentDenied(serverId) ? 'consent' : undefined;
    if (feature === 'sampling') return config.sampling ? undefined : 'sampling';
    if (feature === 'roots') return config.roots ? undefined : 'roots';
    return undefined;
  }

  #safe<T>(read: () => T, fallback: T): T {
    try {
      return read();
    } catch {
      return fallback;
    }
  }
}
