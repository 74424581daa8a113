// The subscriptions a person made (not secret: webhook secrets live in the credential store) and each one's
// position. Two files: `subscriptions.json` (changes when a subscription is made, paused, ended or removed) and
// `cursors.json` (the positions, written often). A position is written only once the feed entries received before
// it are on disk (`commitCursors(persistedSeq)`), so after a crash the server replays rather than skips.
import { join } from 'node:path';
import * as z from 'zod';
import type { EventDeliveryMode } from '../../../shared/domains/events.js';
import { JsonFileWriter, readJsonFile } from '../storage/json-file.js';
import { parseFileShape } from './file-shape.js';

/** One stored subscription. */
export interface StoredSubscription {
  /** Local id. */
  id: string;
  /** Server id. */
  serverId: string;
  /** Event type name, verbatim. */
  name: string;
  /** Arguments as entered. */
  arguments: Record<string, unknown>;
  /** Delivery mode. */
  mode: EventDeliveryMode;
  /** Webhook callback URL. */
  webhookUrl?: string;
  /** Webhook through a relay: the relay server whose endpoint `webhookUrl` is, and which hands deliveries over. */
  relayServerId?: string;
  /** Creation time (ms). */
  createdAt: number;
  /** Paused by the person. */
  paused: boolean;
  /** Ended (terminal failure): the reason, and whether signing in may help. */
  ended?: { reason: string; signIn?: boolean; at: number };
  /** Webhook: the server's id for the registration (routes deliveries), and the granted expiry. */
  webhook?: { id?: string; refreshBefore?: string | null };
}

/** A subscription's position and counters. */
export interface CursorRecord {
  /** The position to resume from (null: from now). */
  cursor: string | null;
  /** When it last advanced (ms). */
  at?: number;
  /** Events stored for the subscription. */
  received: number;
  /** When the last event was stored (ms). */
  lastEventAt?: number;
}

const SubscriptionSchema = z
  .object({
    id: z.string().min(1).max(100),
    serverId: z.string().min(1),
    name: z.string().min(1),
    arguments: z.record(z.string(), z.unknown()),
    mode: z.enum(['poll', 'push', 'webhook']),
    webhookUrl: z.string().optional(),
    relayServerId: z.string().min(1).optional(),
    createdAt: z.number(),
    paused: z.boolean(),
    ended: z.object({ reason: z.string(), signIn: z.boolean().optional(), at: z.number() }).strip().optional(),
    webhook: z
      .object({ id: z.string().optional(), refreshBefore: z.union([z.string(), z.null()]).optional() })
      .strip()
      .optional(),
  })
  .strip();

const SubscriptionsFileSchema = z.object({ version: z.literal(1), subscriptions: z.array(SubscriptionSchema) });

const CursorSchema = z
  .object({
    cursor: z.union([z.string(), z.null()]),
    at: z.number().optional(),
    received: z.number().int().nonnegative().default(0),
    lastEventAt: z.number().optional(),
  })
  .strip();

const CursorsFileSchema = z.object({ version: z.literal(1), cursors: z.record(z.string(), CursorSchema) });

interface PendingCursor {
  record: CursorRecord;
  /** Feed position that must be on disk before this record may be written. */
  afterSeq: number;
}

/** Stored subscriptions and their positions. */
export class SubscriptionStore {
  readonly #subs = new Map<string, StoredSubscription>();
  /** Positions on disk (or about to be). */
  readonly #committed = new Map<string, CursorRecord>();
  /** Positions waiting for their feed entries to reach the disk. */
  readonly #pending = new Map<string, PendingCursor>();
  readonly #subsWriter: JsonFileWriter;
  readonly #cursorsWriter: JsonFileWriter;
  readonly #dir: string;

  constructor(dir: string, opts: { writeDelayMs?: number; onError?: (err: unknown) => void } = {}) {
    this.#dir = dir;
    const writerOpts = { delayMs: opts.writeDelayMs ?? 50, ...(opts.onError ? { onError: opts.onError } : {}) };
    this.#subsWriter = new JsonFileWriter(join(dir, 'subscriptions.json'), writerOpts);
    this.#cursorsWriter = new JsonFileWriter(join(dir, 'cursors.json'), writerOpts);
  }

  /** Loads both files; returns notices for files moved aside. */
  load(): string[] {
    const notices: string[] = [];
    const subs = readJsonFile(join(this.#dir, 'subscriptions.json'), (raw) => parseFileShape(SubscriptionsFileSchema, raw));
    if (subs.kind === 'quarantined')
      notices.push(`The event subscriptions file was unreadable (${subs.reason}) and was moved aside to ${subs.backup}`);
    if (subs.kind === 'ok') for (const s of subs.value.subscriptions) this.#subs.set(s.id, s as StoredSubscription);
    const cursors = readJsonFile(join(this.#dir, 'cursors.json'), (raw) => parseFileShape(CursorsFileSchema, raw));
    if (cursors.kind === 'quarantined')
      notices.push(
        `The event positions file was unreadable (${cursors.reason}) and was moved aside to ${cursors.backup}; subscriptions resume from now`,
      );
    if (cursors.kind === 'ok')
      for (const [id, c] of Object.entries(cursors.value.cursors)) if (this.#subs.has(id)) this.#committed.set(id, c);
    return notices;
  }

  /** Every subscription, oldest first. */
  all(): StoredSubscription[] {
    return [...this.#subs.values()].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  }

  /** One subscription. */
  get(id: string): StoredSubscription | undefined {
    return this.#subs.get(id);
  }

  /** Adds or replaces a subscription (persisted shortly; `flush` to wait). */
  put(sub: StoredSubscription): void {
    this.#subs.set(sub.id, sub);
    this.#saveSubs();
  }

  /** Forgets a subscription and its position. */
  delete(id: string): void {
    this.#subs.delete(id);
    this.#committed.delete(id);
    this.#pending.delete(id);
    this.#saveSubs();
    this.#saveCursors();
  }

  /** The newest position and counters (pending or committed). */
  cursor(id: string): CursorRecord {
    return this.#pending.get(id)?.record ?? this.#committed.get(id) ?? { cursor: null, received: 0 };
  }

  /** Records a new position; it is written once the feed is on disk up to `afterSeq`. */
  setCursor(id: string, record: CursorRecord, afterSeq: number): void {
    if (!this.#subs.has(id)) return;
    this.#pending.set(id, { record, afterSeq });
  }

  /** Moves every position whose feed entries are on disk (up to `persistedSeq`) to the cursors file. */
  commitCursors(persistedSeq: number): void {
    let changed = false;
    for (const [id, p] of this.#pending) {
      if (p.afterSeq > persistedSeq) continue;
      this.#committed.set(id, p.record);
      this.#pending.delete(id);
      changed = true;
    }
    if (changed) this.#saveCursors();
  }

  /** Positions still waiting for the feed. */
  get pendingCursors(): number {
    return this.#pending.size;
  }

  /** Writes both files now. */
  async flush(): Promise<void> {
    await Promise.all([this.#subsWriter.flush(), this.#cursorsWriter.flush()]);
  }

  #saveSubs(): void {
    this.#subsWriter.schedule(() => ({ version: 1, subscriptions: this.all() }));
  }

  #saveCursors(): void {
    this.#cursorsWriter.schedule(() => ({ version: 1, cursors: Object.fromEntries(this.#committed) }));
  }
}
