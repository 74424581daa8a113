// The subscriptions and their delivery loops: one run per active subscription (poll, push or webhook), its live
// status, pause / resume / remove, the end of a subscription on a terminal failure, and webhook deliveries
// forwarded to Switchboard (verified, then stored like any other occurrence). Stored entries always go into the
// feed before the position that follows them moves.
import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/config.js';
import { applyPatch, type Patch } from '../../../shared/optional-fields.js';
import { checkServerUrl } from '../../../shared/config.js';
import type { ServerStatus } from '../../../shared/contract.js';
import type {
  EventDeliveryMode,
  EventTypesResult,
  EventTypeView,
  HostActivity,
  SubscriptionStatus,
  SubscriptionView,
} from '../../../shared/domains/events.js';
import { AppError } from '../../../shared/errors.js';
import { isObject } from '../json.js';
import type { CredentialStore } from '../ports.js';
import { backoffDelay } from '../sessions/backoff.js';
import { deliverySpan } from '../telemetry/attributes.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { classifyWireError, type EventFailure } from './event-errors.js';
import type { EventTap } from './event-tap.js';
import type { EventsPersistence } from './events-persistence.js';
import type { FeedStore } from './feed-store.js';
import { checkOccurrence, isRefused, label } from './payload.js';
import { runPoll } from './poll-runner.js';
import { runPush } from './push-runner.js';
import type { RunContext } from './run-context.js';
import { SchemaChangeTracker } from './schema-change.js';
import { LinkWaitAborted, type ServerLinks } from './server-links.js';
import type { CursorRecord, StoredSubscription, SubscriptionStore } from './subscription-store.js';
import type { EventsTuning } from './tuning.js';
import { generateWebhookSecret, verifyWebhook } from './webhook-signature.js';
import { receiverDocument, type ReceiverDocument } from './webhook-receiver.js';
import { runWebhook, unsubscribeWebhook } from './webhook-runner.js';
import { MAX_WEBHOOK_BODY, type WebhookDelivery, type WebhookReply } from './webhook-types.js';
import { RelayReaders, relayEndpoint } from './webhook-relay.js';

export { MAX_WEBHOOK_BODY, type WebhookDelivery, type WebhookReply };
import { WireErrorSchema } from './wire.js';

/** Credential-store account of a webhook subscription's secret. */
export function webhookSecretAccount(subscriptionId: string): string {
  return `events-webhook:${subscriptionId}`;
}

/** Status updates that only move counters are pushed at most this often per subscription (ms). */
const STATUS_THROTTLE_MS = 500;
/** What the manager uses from around it. */
export interface ManagerDeps {
  /** Stored subscriptions and positions. */
  store: SubscriptionStore;
  /** The feed. */
  feed: FeedStore;
  /** Feed and position writes. */
  persistence: EventsPersistence;
  /** Live clients. */
  links: ServerLinks;
  /** Timings. */
  tuning: EventsTuning;
  /** Webhook secrets. */
  credentials: CredentialStore;
  /** A server's definition (throws not_found). */
  config(serverId: string): ServerConfig;
  /** A server's connection status (without connecting). */
  status(serverId: string): ServerStatus;
  /** Connects a server as any automatic use would (honours its backoff); rejects with why it is not available. */
  connect(serverId: string): Promise<Client>;
  /** The events tap of a server's client. */
  tap(serverId: string, client: Client): EventTap | undefined;
  /** Lists a server's event types again (after the server ended a subscription for a schema change). */
  relist(serverId: string): Promise<EventTypesResult>;
  /** Pushes a subscription's status to the renderer. */
  emitStatus(subscriptionId: string, view: SubscriptionView | undefined): void;
  /** A line in a server's log. */
  log(serverId: string, level: 'info' | 'warning', text: string): void;
  /** Tracing: each delivery is a span (counts only, never payloads). */
  telemetry?: Pick<Telemetry, 'start'>;
}

/** Canonical JSON (sorted keys) for comparing arguments. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** A delivery body as a JSON object (undefined when it is not one). */
function parseObject(bytes: Uint8Array): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(bytes).toString('utf8'));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

const header = (h: WebhookDelivery['headers'], name: string): string | undefined => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

/** One running subscription. */
class Run implements RunContext {
  readonly sub: StoredSubscription;
  readonly tuning: EventsTuning;
  readonly #abort = new AbortController();
  readonly #m: SubscriptionManager;
  readonly #deps: ManagerDeps;
  #cursor: CursorRecord;
  #hadClient = false;
  done: Promise<void> = Promise.resolve();

  constructor(manager: SubscriptionManager, deps: ManagerDeps, sub: StoredSubscription) {
    this.#m = manager;
    this.#deps = deps;
    this.sub = sub;
    this.tuning = deps.tuning;
    this.#cursor = { ...deps.store.cursor(sub.id) };
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  stop(): void {
    this.#abort.abort();
  }

  config(): ServerConfig {
    return this.#deps.config(this.sub.serverId);
  }

  cursor(): string | null {
    return this.#cursor.cursor;
  }

  async client(): Promise<Client> {
    const { links } = this.#deps;
    const id = this.sub.serverId;
    for (;;) {
      if (this.signal.aborted) throw new LinkWaitAborted();
      const ready = links.get(id);
      if (ready) {
        this.#hadClient = true;
        return ready;
      }
      const status = this.#deps.status(id);
      // A session this subscription used ended on its own (a crash, a dropped connection): reconnect it the way
      // any other use would (the session's backoff applies). At start, or after the person disconnected it, wait.
      const lost =
        this.#hadClient &&
        status.state === 'disconnected' &&
        status.error !== undefined &&
        status.error.code !== 'approval_required' &&
        this.#enabled();
      let until: number | undefined;
      if (lost || status.state === 'failed') {
        if (lost) {
          this.status({ state: 'waiting', reason: 'Reconnecting to the server', retryAt: undefined });
          try {
            const client = await this.#deps.connect(id);
            if (this.signal.aborted) throw new LinkWaitAborted();
            this.#hadClient = true;
            return client;
          } catch (err) {
            if (err instanceof LinkWaitAborted) throw err;
          }
        }
        const after = this.#deps.status(id);
        until = after.retryAt;
        const why = after.error ? label(after.error.message, 300) : 'the server is not connected';
        this.status({
          state: 'waiting',
          reason: `Waiting for the server to connect (${why})`,
          ...(until !== undefined ? { retryAt: until } : { retryAt: undefined }),
        });
      } else {
        this.status({ state: 'waiting', reason: 'Waiting for the server to connect', retryAt: undefined });
      }
      // Wake at the server's next change, or when its backoff ends (a lost session is then tried again).
      const ms = lost && until !== undefined ? until - Date.now() + 50 : lost ? this.tuning.retryBaseMs : undefined;
      await links.next(id, this.signal, ms);
    }
  }

  #enabled(): boolean {
    try {
      return this.config().enabled;
    } catch {
      return false;
    }
  }

  retire(client: Client): void {
    this.#deps.links.retire(this.sub.serverId, client);
  }

  tap(client: Client): EventTap | undefined {
    return this.#deps.tap(this.sub.serverId, client);
  }

  accept(raw: readonly unknown[], perEventCursor: boolean): void {
    const { feed } = this.#deps;
    const { serverId, id } = this.sub;
    const span = this.#deps.telemetry?.start('deliver events', 'internal', deliverySpan(this.sub, raw.length));
    const now = Date.now();
    let uncounted = 0;
    let stored = 0;
    let refused = 0;
    for (const item of raw) {
      const occ = checkOccurrence(item, this.sub.name, now);
      let added = 0;
      if (isRefused(occ)) {
        refused++;
        if (occ.rawEventId === undefined || feed.claim(serverId, id, occ.rawEventId))
          feed.appendNote({ kind: 'error', serverId, subscriptionId: id, name: label(this.sub.name), message: occ.reason });
      } else if (feed.appendEvent(serverId, id, occ)) {
        added = 1;
        stored++;
      }
      // The position after an occurrence moves only once the occurrence is in the feed (or was refused).
      if (perEventCursor && occ.cursor !== undefined) this.#move(occ.cursor, added);
      else uncounted += added;
    }
    if (uncounted > 0) this.#count(uncounted);
    this.#deps.persistence.schedule();
    span?.set({ 'switchboard.event.stored': stored, 'switchboard.event.refused': refused });
    span?.end();
  }

  advance(cursor: string | null | undefined): void {
    if (cursor === undefined) return;
    this.#move(cursor, 0);
    this.#deps.persistence.schedule();
  }

  /** Counts stored events not yet attached to a position change. */
  #count(stored: number): void {
    this.#cursor = { ...this.#cursor, received: this.#cursor.received + stored, lastEventAt: Date.now() };
    this.#deps.store.setCursor(this.sub.id, this.#cursor, this.#deps.feed.lastSeq);
    this.#m.touch(this);
  }

  #move(cursor: string | null, stored: number): void {
    const now = Date.now();
    this.#cursor = {
      cursor,
      at: now,
      received: this.#cursor.received + stored,
      ...(stored > 0 ? { lastEventAt: now } : this.#cursor.lastEventAt !== undefined ? { lastEventAt: this.#cursor.lastEventAt } : {}),
    };
    this.#deps.store.setCursor(this.sub.id, this.#cursor, this.#deps.feed.lastSeq);
    this.#m.touch(this);
  }

  get record(): CursorRecord {
    return this.#cursor;
  }

  gap(message: string): void {
    this.#deps.feed.appendNote({
      kind: 'gap',
      serverId: this.sub.serverId,
      subscriptionId: this.sub.id,
      name: label(this.sub.name),
      message,
    });
    this.#deps.persistence.schedule();
  }

  error(message: string): void {
    this.#deps.feed.appendNote({
      kind: 'error',
      serverId: this.sub.serverId,
      subscriptionId: this.sub.id,
      name: label(this.sub.name),
      message,
    });
    this.#deps.persistence.schedule();
  }

  activity(activity: HostActivity, message: string): void {
    this.#deps.feed.appendNote({
      kind: 'activity',
      serverId: this.sub.serverId,
      subscriptionId: this.sub.id,
      name: label(this.sub.name),
      activity,
      message,
    });
    this.#deps.persistence.schedule();
  }

  status(patch: Patch<SubscriptionStatus>): void {
    this.#m.patchStatus(this.sub.id, patch);
  }

  async retry(failure: EventFailure, failures: number): Promise<void> {
    const delay = backoffDelay(failures, this.tuning.retryBaseMs, this.tuning.retryMaxMs);
    this.#deps.log(this.sub.serverId, 'warning', `Events ${this.sub.name}: ${failure.reason}; retrying in ${Math.round(delay / 1000)} s`);
    this.status({ state: 'retrying', reason: failure.reason, retryAt: Date.now() + delay });
    await this.sleep(delay);
  }

  end(failure: EventFailure): void {
    this.#m.endRun(this, failure);
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.signal.aborted || ms <= 0) {
        resolve();
        return;
      }
      const done = (): void => {
        clearTimeout(timer);
        this.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref?.();
      this.signal.addEventListener('abort', done, { once: true });
    });
  }

  backlogged(): boolean {
    return this.#deps.persistence.backlogged();
  }

  drained(): Promise<void> {
    return this.#deps.persistence.drained();
  }

  async callbackUrl(): Promise<string | undefined> {
    const relayId = this.sub.relayServerId;
    if (relayId === undefined) return this.sub.webhookUrl;
    const url = await this.#m.relayUrl(this.sub.serverId, relayId, this.sub.id);
    if (url !== this.sub.webhookUrl) {
      // A relay on this computer behind a tunnel may come back under another address; the new one is registered.
      this.log('info', 'The relay gave a new callback URL; registering it');
      this.sub.webhookUrl = url;
      this.#deps.store.put(this.sub);
    }
    return url;
  }

  async webhookSecret(): Promise<string> {
    const account = webhookSecretAccount(this.sub.id);
    const stored = await this.#deps.credentials.get(account);
    if (stored) return stored;
    // Lost (e.g. a memory-only credential store after a restart): a fresh secret re-keys the registration.
    const secret = generateWebhookSecret();
    await this.#deps.credentials.set(account, secret);
    this.log('warning', 'The webhook secret was not found in the credential store; a new one was generated');
    return secret;
  }

  webhookRegistered(id: string | undefined, refreshBefore: string | null | undefined): void {
    const next = { ...(id !== undefined ? { id } : {}), ...(refreshBefore !== undefined ? { refreshBefore } : {}) };
    if (JSON.stringify(next) === JSON.stringify(this.sub.webhook ?? {})) return;
    this.sub.webhook = next;
    this.#deps.store.put(this.sub);
  }

  log(level: 'info' | 'warning', text: string): void {
    this.#deps.log(this.sub.serverId, level, `Events ${this.sub.name}: ${text}`);
  }
}

/** Every subscription of one Host. */
export class SubscriptionManager {
  readonly #deps: ManagerDeps;
  readonly #runs = new Map<string, Run>();
  readonly #runtime = new Map<string, Patch<SubscriptionStatus>>();
  readonly #throttled = new Map<string, ReturnType<typeof setTimeout>>();
  readonly #schema = new SchemaChangeTracker();
  readonly #relays: RelayReaders;
  #stopped = false;

  constructor(deps: ManagerDeps) {
    this.#deps = deps;
    this.#relays = new RelayReaders({
      connect: (id) => deps.connect(id),
      ingest: (delivery) => this.ingestWebhook(delivery),
      log: (id, level, text) => deps.log(id, level, text),
      problem: (relayId, reason) => {
        for (const s of deps.store.all())
          if (s.mode === 'webhook' && s.relayServerId === relayId && !s.ended) this.patchStatus(s.id, { relayError: reason });
      },
      retryBaseMs: deps.tuning.retryBaseMs,
      retryMaxMs: deps.tuning.retryMaxMs,
      requestTimeoutMs: deps.tuning.unsubscribeTimeoutMs,
    });
  }

  /** Starts a run for every subscription that is neither paused nor ended. */
  start(): void {
    for (const sub of this.#deps.store.all()) if (!sub.paused && !sub.ended) this.#startRun(sub);
    this.#syncRelays();
  }

  /** Relay servers whose deliveries are being read (tests, diagnostics). */
  relaysRead(): string[] {
    return this.#relays.active();
  }

  /**
   * Reads the relays of the webhook subscriptions that have not ended, and no others. A paused one's relay is still
   * read so that a server delivering anyway is told 410 (stop) rather than left retrying against a silent relay.
   */
  #syncRelays(): void {
    const ids = new Set(
      this.#deps.store
        .all()
        .filter((s) => s.mode === 'webhook' && !s.ended)
        .flatMap((s) => (s.relayServerId !== undefined ? [s.relayServerId] : [])),
    );
    void this.#relays.sync(this.#stopped ? new Set() : ids);
  }

  /**
   * The callback URL a relay server gives for a subscription (`key`: its id, so that asking again gives the same
   * endpoint); refused like a URL the person typed.
   */
  async relayUrl(serverId: string, relayServerId: string, key: string): Promise<string> {
    const timeoutMs = this.#deps.tuning.unsubscribeTimeoutMs;
    let client: Client;
    try {
      this.#deps.config(relayServerId);
      client = await this.#deps.connect(relayServerId);
    } catch (err) {
      if (err instanceof AppError && err.code === 'not_found') throw err;
      throw new AppError(
        'connect_failed',
        `The relay server could not be used: ${err instanceof Error ? label(err.message, 300) : 'error'}`,
        { serverId },
      );
    }
    let url: string;
    try {
      url = await relayEndpoint(client, timeoutMs, key);
    } catch (err) {
      throw new AppError(
        'server_error',
        `The relay server gave no callback URL (it needs the webhook_relay_endpoint, webhook_relay_take and webhook_relay_answer tools): ${err instanceof Error ? label(err.message, 300) : 'error'}`,
        { serverId },
      );
    }
    const problem = checkServerUrl(url, false);
    if (problem !== null) throw new AppError('invalid_request', `The relay's callback URL was refused: ${problem}`, { serverId });
    return url;
  }

  /** Every subscription with its status. */
  list(): SubscriptionView[] {
    return this.#deps.store.all().map((s) => this.view(s));
  }

  /** One subscription's view (not_found when unknown). */
  get(id: string): SubscriptionView {
    return this.view(this.#sub(id));
  }

  /** The display form of a subscription. */
  view(sub: StoredSubscription): SubscriptionView {
    return {
      id: sub.id,
      serverId: sub.serverId,
      name: label(sub.name, 1024),
      arguments: sub.arguments,
      mode: sub.mode,
      ...(sub.webhookUrl !== undefined ? { webhookUrl: sub.webhookUrl } : {}),
      ...(sub.relayServerId !== undefined ? { relayServerId: sub.relayServerId } : {}),
      createdAt: sub.createdAt,
      status: this.#status(sub),
    };
  }

  #status(sub: StoredSubscription): SubscriptionStatus {
    const rt = this.#runtime.get(sub.id) ?? {};
    const record = this.#runs.get(sub.id)?.record ?? this.#deps.store.cursor(sub.id);
    const base: SubscriptionStatus = { state: 'waiting', received: record.received };
    if (record.at !== undefined) base.lastCursorAt = record.at;
    if (record.lastEventAt !== undefined) base.lastEventAt = record.lastEventAt;
    if (sub.ended) return { ...base, state: 'ended', reason: sub.ended.reason, ...(sub.ended.signIn ? { signIn: true } : {}) };
    if (sub.paused) return { ...base, state: 'paused' };
    return applyPatch(base, { ...rt, received: base.received });
  }

  /** Creates a subscription to `type` of a server and starts it. */
  async create(
    serverId: string,
    type: EventTypeView,
    args: Record<string, unknown>,
    mode: EventDeliveryMode,
    webhookUrl: string | undefined,
    relayServerId?: string,
  ): Promise<SubscriptionView> {
    if (!type.delivery.includes(mode))
      throw new AppError(
        'invalid_request',
        `The server does not offer ${mode} delivery for ${label(type.name)} (it offers ${type.delivery.join(', ')})`,
        {
          serverId,
        },
      );
    const subId = randomUUID();
    if (mode === 'webhook' && relayServerId !== undefined) {
      if (webhookUrl !== undefined)
        throw new AppError('invalid_request', 'Give either a callback URL or a relay server, not both', { serverId });
      webhookUrl = await this.relayUrl(serverId, relayServerId, subId);
    }
    if (mode === 'webhook') {
      const problem = webhookUrl === undefined ? 'A callback URL is required' : checkServerUrl(webhookUrl, false);
      if (problem !== null) throw new AppError('invalid_request', `Webhook callback URL refused: ${problem}`, { serverId });
    }
    const key = canonical(args);
    const existing = this.#deps.store
      .all()
      .find((s) => s.serverId === serverId && s.name === type.name && s.mode === mode && canonical(s.arguments) === key);
    if (existing)
      throw new AppError('id_conflict', `There already is a ${mode} subscription to ${label(type.name)} with these arguments`, {
        serverId,
      });
    const sub: StoredSubscription = {
      id: subId,
      serverId,
      name: type.name,
      arguments: args,
      mode,
      ...(mode === 'webhook' && webhookUrl !== undefined ? { webhookUrl } : {}),
      ...(mode === 'webhook' && relayServerId !== undefined ? { relayServerId } : {}),
      createdAt: Date.now(),
      paused: false,
    };
    if (mode === 'webhook') await this.#deps.credentials.set(webhookSecretAccount(sub.id), generateWebhookSecret());
    this.#deps.store.put(sub);
    await this.#deps.store.flush();
    this.#startRun(sub);
    this.#syncRelays();
    const view = this.view(sub);
    this.#deps.emitStatus(sub.id, view);
    return view;
  }

  /** Pauses a subscription (a webhook registration is cancelled at the server). */
  async pause(id: string): Promise<SubscriptionView> {
    const sub = this.#sub(id);
    if (!sub.paused) {
      await this.#stopRun(id);
      sub.paused = true;
      this.#deps.store.put(sub);
      await this.#deps.store.flush();
      await this.#unsubscribe(sub);
      this.#syncRelays();
    }
    return this.#announce(sub);
  }

  /** Resumes a paused or ended subscription from its last position. */
  async resume(id: string): Promise<SubscriptionView> {
    const sub = this.#sub(id);
    if (sub.paused || sub.ended || !this.#runs.has(id)) {
      sub.paused = false;
      delete sub.ended;
      this.#runtime.delete(id);
      this.#deps.store.put(sub);
      await this.#deps.store.flush();
      if (!this.#runs.has(id)) this.#startRun(sub);
      this.#syncRelays();
    }
    return this.#announce(sub);
  }

  /** Ends and forgets a subscription (webhook: unsubscribes at the server). Its feed entries stay. */
  async remove(id: string): Promise<void> {
    const sub = this.#sub(id);
    await this.#stopRun(id);
    if (!sub.paused && !sub.ended) await this.#unsubscribe(sub);
    this.#deps.store.delete(id);
    this.#schema.forget(id);
    await this.#deps.store.flush();
    if (sub.mode === 'webhook') await this.#deps.credentials.delete(webhookSecretAccount(id)).catch(() => undefined);
    this.#runtime.delete(id);
    const t = this.#throttled.get(id);
    if (t) clearTimeout(t);
    this.#throttled.delete(id);
    this.#syncRelays();
    this.#deps.emitStatus(id, undefined);
  }

  /** A server was removed from Switchboard: its subscriptions end (they stay listed until removed). */
  serverRemoved(serverId: string): void {
    for (const sub of this.#deps.store.all()) {
      if (sub.ended) continue;
      // A subscription through a removed relay ends too: nothing would read its deliveries.
      const reason =
        sub.serverId === serverId
          ? 'The server was removed from Switchboard'
          : sub.relayServerId === serverId
            ? 'Its webhook relay server was removed from Switchboard'
            : undefined;
      if (reason === undefined) continue;
      const run = this.#runs.get(sub.id);
      if (run) this.endRun(run, { kind: 'not_found', terminal: true, reason });
      else {
        sub.ended = { reason, at: Date.now() };
        this.#deps.store.put(sub);
        this.#announce(sub);
      }
    }
    this.#syncRelays();
  }

  /**
   * A run met a terminal failure: the subscription ends with the reason (and the sign-in offer for authorization),
   * unless the server ended it for a removed or changed event type: then the types are listed again first.
   */
  endRun(run: Run, failure: EventFailure): void {
    const sub = run.sub;
    run.stop();
    if (this.#runs.get(sub.id) === run) this.#runs.delete(sub.id);
    if (failure.schemaChange !== undefined && !this.#stopped) {
      void this.#rediscover(sub, failure);
      return;
    }
    this.#end(sub, failure);
  }

  /** Lists the types again and resubscribes, or ends the subscription when its type or mode is gone. */
  async #rediscover(sub: StoredSubscription, failure: EventFailure): Promise<void> {
    this.patchStatus(sub.id, {
      state: 'starting',
      reason: 'The server changed this event type; listing its types again',
      retryAt: undefined,
    });
    let type: EventTypeView | undefined;
    let listError: string | undefined;
    try {
      const listing = await this.#deps.relist(sub.serverId);
      type = listing.supported ? listing.types.find((t) => t.name === sub.name) : undefined;
    } catch (err) {
      listError = err instanceof Error ? label(err.message, 200) : 'error';
    }
    // Paused, removed or resumed by the person meanwhile, or shutting down: theirs is the last word.
    if (this.#stopped || this.#deps.store.get(sub.id) !== sub || sub.paused || sub.ended || this.#runs.has(sub.id)) return;
    const plan = this.#schema.plan(sub.id, failure, sub.mode, type, listError, Date.now());
    if (plan.action === 'end') {
      this.#end(sub, plan.failure);
      return;
    }
    const note = { serverId: sub.serverId, subscriptionId: sub.id, name: label(sub.name) };
    if (plan.note !== undefined) this.#deps.feed.appendNote({ kind: 'activity', ...note, activity: 'resubscribed', message: plan.note });
    if (plan.fromNow) {
      const record = this.#deps.store.cursor(sub.id);
      this.#deps.store.setCursor(sub.id, { ...record, cursor: null }, this.#deps.feed.lastSeq);
      this.#deps.feed.appendNote({
        kind: 'gap',
        ...note,
        message: 'The server refused the last position after changing the event type; resubscribed from now',
      });
    }
    this.#deps.persistence.schedule();
    this.#deps.log(sub.serverId, 'info', `Events ${sub.name}: ${plan.note ?? 'resubscribed from now after a schema change'}`);
    this.#startRun(sub);
  }

  #end(sub: StoredSubscription, failure: EventFailure): void {
    sub.ended = { reason: failure.reason, ...(failure.kind === 'authorization' ? { signIn: true } : {}), at: Date.now() };
    this.#deps.store.put(sub);
    this.#deps.feed.appendNote({
      kind: 'error',
      serverId: sub.serverId,
      subscriptionId: sub.id,
      name: label(sub.name),
      message: `Subscription ended: ${failure.reason}`,
    });
    this.#deps.persistence.schedule();
    this.#deps.log(sub.serverId, 'warning', `Events ${sub.name}: subscription ended: ${failure.reason}`);
    this.#runtime.delete(sub.id);
    this.#syncRelays();
    this.#announce(sub);
  }

  /** Merges a runtime status patch; a state change is pushed at once, counter changes at most twice a second. */
  patchStatus(id: string, patch: Patch<SubscriptionStatus>): void {
    const current = this.#runtime.get(id) ?? {};
    const next = { ...current, ...patch };
    this.#runtime.set(id, next);
    if (patch.state !== undefined && patch.state !== current.state) {
      const sub = this.#deps.store.get(id);
      if (sub) this.#announce(sub);
      return;
    }
    this.touchId(id);
  }

  /** A run's counters or position moved. */
  touch(run: Run): void {
    this.#schema.advanced(run.sub.id);
    this.touchId(run.sub.id);
  }

  touchId(id: string): void {
    if (this.#throttled.has(id) || this.#stopped) return;
    const timer = setTimeout(() => {
      this.#throttled.delete(id);
      const sub = this.#deps.store.get(id);
      if (sub) this.#deps.emitStatus(id, this.view(sub));
    }, STATUS_THROTTLE_MS);
    timer.unref?.();
    this.#throttled.set(id, timer);
  }

  /** The well-known receiver document for an origin: the paths of the active webhook subscriptions there. */
  webhookReceiverDocument(origin: string): ReceiverDocument {
    const urls = this.#deps.store
      .all()
      .filter((s) => s.mode === 'webhook' && !s.paused && !s.ended)
      .flatMap((s) => (s.webhookUrl !== undefined ? [s.webhookUrl] : []));
    return receiverDocument(origin, urls);
  }

  /**
   * A verification challenge for a registration id not known yet: the server sends it before it answers the
   * subscribe that would tell us the id. It is echoed when its signature verifies with the secret of one of our
   * webhook subscriptions still waiting for that answer (the secret proves the subscription is ours).
   */
  async #pendingVerification(delivery: WebhookDelivery): Promise<WebhookReply | undefined> {
    const pending = this.#deps.store
      .all()
      .filter((s) => s.mode === 'webhook' && !s.paused && !s.ended && this.#runs.has(s.id))
      .slice(0, 64);
    const headers = {
      id: header(delivery.headers, 'webhook-id'),
      timestamp: header(delivery.headers, 'webhook-timestamp'),
      signature: header(delivery.headers, 'webhook-signature'),
    };
    for (const sub of pending) {
      const secret = await this.#deps.credentials.get(webhookSecretAccount(sub.id));
      if (!secret || !verifyWebhook(secret, headers, delivery.body).ok) continue;
      const body = parseObject(delivery.body);
      // An event for it before the subscribe answer: the sender retries once the id is known.
      if (body?.['type'] !== 'verification') return undefined;
      const challenge = body['challenge'];
      if (typeof challenge !== 'string' || challenge.length > 1024) return { status: 400, reason: 'bad challenge' };
      return { status: 200, body: { challenge } };
    }
    return undefined;
  }

  /** Verifies and stores a webhook delivery forwarded to Switchboard; returns the reply for the sender. */
  async ingestWebhook(delivery: WebhookDelivery): Promise<WebhookReply> {
    const registration = header(delivery.headers, 'x-mcp-subscription-id');
    if (!registration) return { status: 400, reason: 'missing X-MCP-Subscription-Id' };
    if (delivery.body.length > MAX_WEBHOOK_BODY) return { status: 413, reason: 'delivery body too large' };
    const sub = this.#deps.store.all().find((s) => s.mode === 'webhook' && s.webhook?.id === registration);
    // Not (yet) known: the subscribe answer may still be on its way; the sender retries later.
    if (!sub) return (await this.#pendingVerification(delivery)) ?? { status: 503, reason: 'unknown subscription id' };
    const secret = await this.#deps.credentials.get(webhookSecretAccount(sub.id));
    if (!secret) return { status: 503, reason: 'no secret stored for this subscription' };
    const verdict = verifyWebhook(
      secret,
      {
        id: header(delivery.headers, 'webhook-id'),
        timestamp: header(delivery.headers, 'webhook-timestamp'),
        signature: header(delivery.headers, 'webhook-signature'),
      },
      delivery.body,
    );
    if (!verdict.ok) return { status: 401, reason: `signature refused: ${verdict.reason}` };
    // 410 Gone: refused on purpose, and not to be retried (the sketch's meaning); the registration itself stays.
    if (sub.paused || sub.ended) return { status: 410, reason: 'the subscription is paused or ended' };
    const body = parseObject(delivery.body);
    if (!body) return { status: 400, reason: 'body is not a JSON object' };
    const run = this.#runs.get(sub.id);
    if (!run) return { status: 503, reason: 'the subscription is not running' };
    const type = body['type'];
    if (type === 'verification') {
      const challenge = body['challenge'];
      if (typeof challenge !== 'string' || challenge.length > 1024) return { status: 400, reason: 'bad challenge' };
      return { status: 200, body: { challenge } };
    }
    if (type === 'gap') {
      run.gap('The server reported a gap in webhook deliveries');
      const cursor = body['cursor'];
      if (typeof cursor === 'string' || cursor === null) run.advance(cursor);
      return { status: 200 };
    }
    if (type === 'terminated') {
      const e = WireErrorSchema.safeParse(body['error']);
      run.end(
        e.success
          ? classifyWireError(e.data.code, e.data.message, e.data.data)
          : { kind: 'other', terminal: true, reason: 'The server ended the subscription' },
      );
      return { status: 200 };
    }
    if (type !== undefined) return { status: 200, reason: 'unknown control envelope ignored' };
    run.accept([body], true);
    return { status: 200 };
  }

  /** Stops every run (shutdown); positions stay as stored. */
  async shutdown(): Promise<void> {
    this.#stopped = true;
    for (const t of this.#throttled.values()) clearTimeout(t);
    this.#throttled.clear();
    await Promise.all([...this.#runs.keys()].map((id) => this.#stopRun(id)));
    await this.#relays.stopAll();
  }

  #sub(id: string): StoredSubscription {
    const sub = this.#deps.store.get(id);
    if (!sub) throw new AppError('not_found', `No event subscription ${label(id, 100)}`);
    return sub;
  }

  #announce(sub: StoredSubscription): SubscriptionView {
    const view = this.view(sub);
    const t = this.#throttled.get(sub.id);
    if (t) clearTimeout(t);
    this.#throttled.delete(sub.id);
    if (!this.#stopped) this.#deps.emitStatus(sub.id, view);
    return view;
  }

  #startRun(sub: StoredSubscription): void {
    if (this.#stopped) return;
    const run = new Run(this, this.#deps, sub);
    this.#runs.set(sub.id, run);
    const loop = sub.mode === 'poll' ? runPoll : sub.mode === 'push' ? runPush : runWebhook;
    run.done = loop(run)
      .catch((err: unknown) => {
        this.#deps.log(
          sub.serverId,
          'warning',
          `Events ${sub.name}: the delivery loop failed: ${err instanceof Error ? label(err.message, 300) : 'unknown error'}`,
        );
      })
      .finally(() => {
        if (this.#runs.get(sub.id) === run) this.#runs.delete(sub.id);
      });
  }

  async #stopRun(id: string): Promise<void> {
    const run = this.#runs.get(id);
    if (!run) return;
    this.#runs.delete(id);
    run.stop();
    await run.done;
  }

  /** Cancels a webhook registration at the server, best effort (it lapses at its expiry otherwise). */
  async #unsubscribe(sub: StoredSubscription): Promise<void> {
    if (sub.mode !== 'webhook') return;
    const client = this.#deps.links.get(sub.serverId);
    if (!client) {
      this.#deps.log(sub.serverId, 'info', `Events ${sub.name}: not connected, so the webhook registration lapses at its expiry`);
      return;
    }
    try {
      await unsubscribeWebhook(client, sub, this.#deps.tuning.unsubscribeTimeoutMs);
    } catch (err) {
      this.#deps.log(
        sub.serverId,
        'warning',
        `Events ${sub.name}: events/unsubscribe failed (${err instanceof Error ? label(err.message, 200) : 'error'}); the registration lapses at its expiry`,
      );
    }
  }
}
