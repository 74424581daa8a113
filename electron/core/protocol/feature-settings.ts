// The client features as the contract edits them: the per-server switches (saved in the definition), the consent to
// be asked questions and the shared folders. Built after the sessions and the definitions it reads and edits; the
// per-Client part it configures (ClientFeatures) is built before the sessions, which install it on every Client.
import type { ServerConfig, ServerConfigInput } from '../../../shared/config.js';
import type { ServerStatus } from '../../../shared/contract.js';
import type { ClientFeaturesView, ElicitationConsent, RootInput } from '../../../shared/domains/protocol.js';
import type { ElicitationBroker } from '../elicitation/elicitation-broker.js';
import type { EventBus } from '../event-bus.js';
import { rootView, toRoot } from '../roots/root-paths.js';
import type { SamplingBroker } from '../sampling/sampling-broker.js';
import type { ClientFeatures } from './client-features.js';
import type { FeatureStore } from './feature-store.js';
import type { TrafficLog } from './traffic-log.js';

/** What the settings are built from. */
export interface FeatureSettingsDeps {
  events: Pick<EventBus, 'emit'>;
  config(id: string): ServerConfig;
  status(id: string): ServerStatus;
  /** Saves an edited definition (a live session reconnects). */
  update(id: string, input: ServerConfigInput): Promise<unknown>;
  elicitation: ElicitationBroker;
  features: ClientFeatures;
}

/** Every server's client feature settings. */
export class FeatureSettings {
  readonly #d: FeatureSettingsDeps;

  constructor(deps: FeatureSettingsDeps) {
    this.#d = deps;
  }

  /** The protocol view's traffic log. */
  get traffic(): TrafficLog {
    return this.#d.features.traffic;
  }

  /** Sampling requests answered by hand. */
  get sampling(): SamplingBroker {
    return this.#d.features.sampling;
  }

  /** Consent and roots per server. */
  get store(): FeatureStore {
    return this.#d.features.store;
  }

  /** A server's client features. */
  view(id: string): ClientFeaturesView {
    const config = this.#d.config(id);
    const status = this.#d.status(id);
    return {
      serverId: id,
      elicitation: config.elicitation,
      elicitationConsent: this.store.consent(id),
      sampling: config.sampling,
      roots: config.roots,
      tasks: config.tasks,
      rootList: this.store.roots(id).map(rootView),
      ...(status.protocolVersion ? { protocolVersion: status.protocolVersion } : {}),
    };
  }

  /** Changes the feature switches (saved in the server's definition; a live session reconnects). */
  async setFeatures(
    id: string,
    patch: { elicitation?: boolean; sampling?: boolean; roots?: boolean; tasks?: boolean },
  ): Promise<ClientFeaturesView> {
    const config = this.#d.config(id);
    const next = { ...config, ...definedOnly(patch) };
    if (JSON.stringify(next) !== JSON.stringify(config)) await this.#d.update(id, next as ServerConfigInput);
    return this.#changed(id);
  }

  /** Records the person's consent to questions; "deny" declines what is waiting. */
  setConsent(id: string, consent: ElicitationConsent): ClientFeaturesView {
    this.#d.config(id);
    this.store.setConsent(id, consent);
    const broker = this.#d.elicitation;
    if (consent === 'deny') broker.declineServer(id, 'Declined: you do not let this server ask questions');
    if (consent === 'allow') broker.allowServer(id);
    return this.#changed(id);
  }

  /** Replaces the folders shared with a server and tells a connected server its roots changed. */
  async setRoots(id: string, roots: RootInput[]): Promise<ClientFeaturesView> {
    const config = this.#d.config(id);
    const stored = roots.map(toRoot);
    const unique = [...new Map(stored.map((r) => [r.uri, r])).values()];
    this.store.setRoots(id, unique);
    const client = this.#d.features.client(id);
    if (config.roots && client && this.#d.status(id).state === 'connected') {
      await client.sendRootsListChanged().catch(() => undefined);
    }
    return this.#changed(id);
  }

  #changed(id: string): ClientFeaturesView {
    const view = this.view(id);
    this.#d.events.emit('protocol.featuresChanged', view);
    return view;
  }
}

function definedOnly<T extends Record<string, unknown>>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<T>;
}
