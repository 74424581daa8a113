// The Host's events feature: event types per server (listed at connect, again on `notifications/events/list_changed`),
// subscriptions and their delivery loops, the feed (occurrences and host activity) with its live push, and the
// last flush at shutdown. Files live in `<data>/events/`.
import { join } from 'node:path';
import type { ReportProblem } from '../problems.js';
import type { Client } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/config.js';
import type {
  EventDeliveryMode,
  EventTypeView,
  EventTypesResult,
  FeedFilter,
  FeedPage,
  HostActivity,
  SubscriptionView,
} from '../../../shared/domains/events.js';
import { AppError } from '../../../shared/errors.js';
import type { EventBus } from '../event-bus.js';
import type { CredentialStore } from '../ports.js';
import type { SessionController } from '../sessions/session-controller.js';
import type { SessionEvents } from '../sessions/session-events.js';
import { EventTap } from './event-tap.js';
import { listEventTypes } from './event-types.js';
import { EventsPersistence } from './events-persistence.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { FeedStore } from './feed-store.js';
import { recordHostActivity } from './host-activity.js';
import { LivePush } from './live-push.js';
import { label } from './payload.js';
import { ServerLinks } from './server-links.js';
import { SubscriptionManager, type WebhookDelivery, type WebhookReply } from './subscription-manager.js';
import { SubscriptionStore } from './subscription-store.js';
import { DEFAULT_EVENTS_TUNING, type EventsTuning } from './tuning.js';
import type { ReceiverDocument } from './webhook-receiver.js';

/** The parts of the Host the events feature uses. */
export interface EventsHost {
  readonly events: EventBus;
  readonly sessionEvents: SessionEvents;
  readonly sessions: SessionController;
  readonly credentials: CredentialStore;
  /** A server's definition (throws not_found). */
  config(id: string): ServerConfig;
}

/** How the feature is built. */
export interface EventsServiceOptions {
  /** Folder of the events files (`<data>/events`). */
  dir: string;
  /** Timings (tests shorten some). */
  tuning?: Partial<EventsTuning>;
  /** A line in a server's log (the session's log view). */
  log?: (serverId: string, level: 'info' | 'warning', text: string) => void;
  /** Failures of the feed's and subscriptions' storage. */
  report?: ReportProblem;
  /** A server's listing found event types where it had none (or the reverse): its capabilities as shown changed. */
  onSupportChanged?: (serverId: string) => void;
  /** Tracing: each delivery of occurrences into the feed is a span. */
  telemetry?: Pick<Telemetry, 'start'>;
}

interface TypesEntry {
  result?: EventTypesResult;
  inflight?: Promise<EventTypesResult>;
  /** Bumped on every connect / list change so an old listing cannot overwrite a newer one. */
  generation: number;
}

/** Events for every server of one Host. */
export class EventsService {
  readonly tuning: EventsTuning;
  readonly #host: EventsHost;
  readonly #feed: FeedStore;
  readonly #store: SubscriptionStore;
  readonly #persistence: EventsPersistence;
  readonly #links = new ServerLinks();
  readonly #manager: SubscriptionManager;
  readonly #live: LivePush;
  readonly #types = new Map<string, TypesEntry>();
  readonly #log: (serverId: string, level: 'info' | 'warning', text: string) => void;
  readonly #off: (() => void)[] = [];
  #started = false;
  #closed = false;
  #stopping: Promise<void> | undefined;

  readonly #onSupportChanged: (serverId: string) => void;

  constructor(host: EventsHost, o: EventsServiceOptions) {
    this.#host = host;
    this.tuning = { ...DEFAULT_EVENTS_TUNING, ...o.tuning };
    this.#log = o.log ?? (() => undefined);
    this.#onSupportChanged = o.onSupportChanged ?? (() => undefined);
    const dir = o.dir;
    const report = (err: unknown): void =>
      (o.report ?? (() => undefined))({
        id: 'events-storage',
        message: `Event feeds could not be saved: ${err instanceof Error ? err.message : String(err)}. New events may be lost at the next restart.`,
      });
    this.#feed = new FeedStore({
      dir: join(dir, 'feed'),
      limit: this.tuning.feedLimit,
      activityLimit: this.tuning.activityLimit,
      maxBytes: this.tuning.feedMaxBytes,
    });
    this.#store = new SubscriptionStore(dir, { onError: report });
    this.#persistence = new EventsPersistence(this.#feed, this.#store, {
      delayMs: this.tuning.writeDelayMs,
      backlogLimit: this.tuning.backlogLimit,
      onError: report,
    });
    this.#live = new LivePush(
      (payload) => host.events.emit('events.occurred', payload),
      this.tuning.pushDelayMs,
      this.tuning.pushMaxEntries,
    );
    this.#manager = new SubscriptionManager({
      store: this.#store,
      feed: this.#feed,
      persistence: this.#persistence,
      links: this.#links,
      tuning: this.tuning,
      credentials: host.credentials,
      config: (id) => host.config(id),
      status: (id) => host.sessions.status(id),
      connect: (id) => host.sessions.client(id),
      tap: (serverId, client) => this.#tap(serverId, client),
      relist: async (id) => this.#list(id, await host.sessions.client(id)),
      ...(o.telemetry ? { telemetry: o.telemetry } : {}),
      emitStatus: (subscriptionId, subscription) => {
        // Entries appended before a status change reach the renderer before it: once a pause shows, nothing the
        // subscription delivered before it can still appear above it.
        this.#live.flush();
        host.events.emit('events.subscriptionStatus', subscription ? { subscriptionId, subscription } : { subscriptionId });
      },
      log: (serverId, level, text) => this.#log(serverId, level, text),
    });
  }

  /** Loads the files and starts following sessions; subscriptions start as their servers connect. */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    const notices = [...this.#feed.load(), ...this.#store.load()];
    this.#off.push(this.#feed.onAppend((entry) => this.#live.add(entry)));
    for (const message of notices) this.#activity('', 'failed', message);
    this.#off.push(
      this.#host.sessionEvents.subscribe((event) => {
        this.#links.onSession(event);
        if (event.type === 'connected') this.#onConnected(event.id, event.client);
        else if (event.type === 'removed') {
          this.#types.delete(event.id);
          this.#manager.serverRemoved(event.id);
        }
      }),
    );
    this.#off.push(
      this.#host.events.subscribe(
        (event, payload) => {
          if (event === 'servers.status') this.#links.changed((payload as { id: string }).id);
        },
        { internal: true },
      ),
    );
    this.#off.push(recordHostActivity(this.#host, (serverId, activity, message, uri) => this.#activity(serverId, activity, message, uri)));
    this.#manager.start();
  }

  /** The event types a server offers: the last listing, or a fresh one (connecting the server if needed). */
  async types(id: string): Promise<EventTypesResult> {
    this.#host.config(id);
    const entry = this.#types.get(id);
    if (entry?.result) return entry.result;
    if (entry?.inflight) return entry.inflight;
    const client = await this.#host.sessions.client(id);
    return this.#list(id, client);
  }

  /** The event types of a server as last listed, for its catalog group (undefined until listed). */
  knownTypes(id: string): EventTypeView[] | undefined {
    const result = this.#types.get(id)?.result;
    return result?.supported ? result.types : undefined;
  }

  /** Subscribes to an event type of a server. */
  async subscribe(args: {
    id: string;
    name: string;
    arguments: Record<string, unknown>;
    mode: EventDeliveryMode;
    webhookUrl?: string;
    relayServerId?: string;
  }): Promise<SubscriptionView> {
    this.#host.config(args.id);
    const listing = await this.types(args.id);
    if (!listing.supported) throw new AppError('invalid_request', 'This server offers no events', { serverId: args.id });
    const type = listing.types.find((t) => t.name === args.name);
    if (!type) throw new AppError('not_found', `The server offers no event type named ${label(args.name, 120)}`, { serverId: args.id });
    return this.#manager.create(args.id, type, args.arguments, args.mode, args.webhookUrl, args.relayServerId);
  }

  /** Relay servers whose webhook deliveries are being read now. */
  relaysRead(): string[] {
    return this.#manager.relaysRead();
  }

  /** Every subscription with its status. */
  subscriptions(): SubscriptionView[] {
    return this.#manager.list();
  }

  /** Pauses a subscription. */
  pause(subscriptionId: string): Promise<SubscriptionView> {
    return this.#manager.pause(subscriptionId);
  }

  /** Resumes a subscription. */
  resume(subscriptionId: string): Promise<SubscriptionView> {
    return this.#manager.resume(subscriptionId);
  }

  /** Removes a subscription. */
  remove(subscriptionId: string): Promise<void> {
    return this.#manager.remove(subscriptionId);
  }

  /** One page of the feed, newest first. */
  feed(filter: FeedFilter, cursor: string | undefined, limit: number): FeedPage {
    return this.#feed.page(filter, cursor, limit);
  }

  /** Verifies and stores a webhook delivery forwarded to Switchboard (a relay, or the loopback receiver in tests). */
  ingestWebhook(delivery: WebhookDelivery): Promise<WebhookReply> {
    return this.#manager.ingestWebhook(delivery);
  }

  /** The well-known receiver document (`/.well-known/mcp-webhook-receiver.json`) a receiver at `origin` serves. */
  webhookReceiverDocument(origin: string): ReceiverDocument {
    return this.#manager.webhookReceiverDocument(origin);
  }

  /** Occurrences (with gaps and errors) in the feed window (tests, benchmarks). */
  get feedCount(): number {
    return this.#feed.count;
  }

  /** Writes the feed and positions now. */
  flush(): Promise<void> {
    return this.#persistence.flush();
  }

  /** Cancels every stream and loop (while the sessions are still up) and sends the last live entries; idempotent. */
  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      await this.#manager.shutdown();
      for (const off of this.#off.splice(0)) off();
      this.#live.flush();
      this.#live.dispose();
    })();
    return this.#stopping;
  }

  /** Stops every delivery loop (streams cancelled while sessions are still up), then writes everything. */
  async shutdown(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // A stop that hangs (a server that never lets go) must not keep the feed from being written.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.stop(), new Promise<void>((resolve) => (timer = setTimeout(resolve, 1000)))]);
    clearTimeout(timer);
    this.#persistence.dispose();
    try {
      await this.#persistence.flush();
    } catch {
      // Last resort: the synchronous writes (the positions file follows the feed on the next start's replay).
      this.#feed.flushSync();
    }
  }

  #tap(serverId: string, client: Client): EventTap | undefined {
    return EventTap.of(client, {
      listChanged: () => {
        this.#log(serverId, 'info', 'The server’s event types changed');
        if (this.#links.get(serverId) === client) void this.#list(serverId, client).catch(() => undefined);
      },
      log: (level, text) => this.#log(serverId, level, text),
    });
  }

  #onConnected(id: string, client: Client): void {
    this.#tap(id, client);
    void this.#list(id, client).catch((err: unknown) => {
      this.#log(id, 'warning', `Could not list event types: ${err instanceof Error ? label(err.message, 300) : 'error'}`);
    });
  }

  /** Lists a server's types; records an activity entry when the set changed. */
  #list(id: string, client: Client): Promise<EventTypesResult> {
    let entry = this.#types.get(id);
    if (!entry) {
      entry = { generation: 0 };
      this.#types.set(id, entry);
    }
    const generation = ++entry.generation;
    const previous = entry.result;
    const run = listEventTypes(client, { config: this.#host.config(id) }).then((result) => {
      const current = this.#types.get(id);
      if (!current || current.generation !== generation) return result;
      const before = previous?.supported === true;
      current.result = result;
      delete current.inflight;
      if (before !== result.supported) this.#onSupportChanged(id);
      const shape = (r: EventTypesResult | undefined): string =>
        JSON.stringify(r?.types.map((t) => [t.name, t.delivery, t.description, t.inputSchema, t.payloadSchema]) ?? []);
      if (shape(previous) !== shape(result) && (previous !== undefined || result.types.length > 0)) {
        const names = result.types.map((t) => label(t.name, 60));
        const list = names.length > 5 ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more` : names.join(', ');
        this.#activity(
          id,
          'event-types-changed',
          result.types.length === 0 ? 'Offers no event types now' : `Offers ${result.types.length} event type(s): ${list}`,
        );
      }
      return result;
    });
    entry.inflight = run;
    run.catch(() => {
      const current = this.#types.get(id);
      if (current?.generation === generation) delete current.inflight;
    });
    return run;
  }

  #activity(serverId: string, activity: HostActivity, message: string, uri?: string): void {
    if (this.#closed) return;
    this.#feed.appendNote({ kind: 'activity', serverId, activity, message, ...(uri !== undefined ? { uri } : {}) });
    this.#persistence.schedule();
  }
}
