// The protocol view's store: a bounded ring of redacted JSON-RPC messages per server, request/response pairing
// (method and duration on the response), and batched `protocol.traffic` events.
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { matchesTraffic } from '../../../shared/domains/protocol-filter.js';
import type { TrafficEntry, TrafficFilter, TrafficKind } from '../../../shared/domains/protocol.js';
import {
  EVENT_NOTIFICATION_METHOD,
  EVENT_NOTIFICATIONS_KEPT,
  isEventNotification,
  TRAFFIC_RING_SIZE,
} from '../../../shared/domains/traffic-ring.js';
import type { EventBus } from '../event-bus.js';
import { isObject } from '../json.js';
import { sanitizeText, truncate } from '../text.js';
import { jsonByteLength } from '../calls/result-size.js';
import { wireBytes } from '../transports/wire-size.js';
import { PREVIEW_ITEMS, previewValue } from './payload-preview.js';
import { redactValue } from './redact.js';
import type { TrafficSink } from './traffic-tap.js';

/** Messages kept per server (oldest dropped first). */
export const TRAFFIC_PER_SERVER = TRAFFIC_RING_SIZE;
/**
 * Event notifications kept per server, a share of the ring: a busy push subscription once filled 398 of 429 entries,
 * pushing every request and response out. Past this the oldest event notification goes, not the oldest message.
 */
export const EVENT_NOTIFICATIONS_PER_SERVER = EVENT_NOTIFICATIONS_KEPT;
/** Characters of payload text kept per message. */
export const PAYLOAD_CHARS = 16 * 1024;
/** Above this size (compact JSON bytes) the payload is shown compact instead of pretty-printed. */
const PRETTY_LIMIT = 256 * 1024;
/** Open requests remembered per server for pairing. */
const OPEN_REQUESTS = 1000;
/** How long new entries are gathered before one event carries them. */
export const TRAFFIC_BATCH_MS = 100;

/** Messages up to this size are kept whole until their payload text is made; larger ones as a bounded preview. */
const KEEP_WHOLE_BYTES = 16 * 1024;

/** Messages up to this size are never cut by a preview (PREVIEW_ITEMS items take twice as many bytes). */
const UNCUT_BYTES = Math.min(PAYLOAD_CHARS, 2 * PREVIEW_ITEMS);

/** What an entry's payload text is made from: the message, or already its bounded preview. */
interface PayloadSource {
  value: unknown;
  /** `value` is a preview: it was cut (true) or not (false); undefined: the message as it came, not yet previewed. */
  cut?: boolean;
  secrets: readonly string[];
  bytes: number;
}

/** Characters of each string kept for a payload: what is shown, plus the longest secret (one cut at the edge is still redacted whole). */
function keepChars(secrets: readonly string[]): number {
  return PAYLOAD_CHARS + secrets.reduce((n, s) => Math.max(n, s.length), 0);
}

/** The payload text: strings cut past what is shown, then redacted, printed and sanitised, then cut to PAYLOAD_CHARS. */
function payloadText({ value, cut, secrets, bytes }: PayloadSource): { payload: string; truncated: boolean } {
  // A message this small can hold no string or array the preview would cut (each character and each item takes at
  // least a byte on the wire), so the redacting copy is the only copy made.
  const preview =
    cut !== undefined ? { value, cut } : bytes <= UNCUT_BYTES ? { value, cut: false } : previewValue(value, keepChars(secrets));
  let text: string;
  try {
    text = JSON.stringify(redactValue(preview.value, secrets), null, bytes > PRETTY_LIMIT ? undefined : 2) ?? '';
  } catch {
    text = '(the message could not be shown)';
  }
  // A little more than is shown goes through sanitising, which may remove characters.
  const sliced = text.length > PAYLOAD_CHARS + 1024;
  if (sliced) text = text.slice(0, PAYLOAD_CHARS + 1024);
  text = sanitizeText(text);
  if (text.length <= PAYLOAD_CHARS && !preview.cut && !sliced) return { payload: text, truncated: false };
  return { payload: text.slice(0, PAYLOAD_CHARS), truncated: true };
}

/** What the log needs around it. */
export interface TrafficLogDeps {
  /** Where protocol.traffic events go. */
  events: Pick<EventBus, 'emit' | 'size'>;
  /** The secret values to redact for a server (read when its transport starts). */
  secretValues(serverId: string): Promise<string[]>;
  /** Clock (tests). */
  now?: () => number;
}

interface Open {
  method: string;
  time: number;
}

/**
 * One recorded entry with what its payload text is made from until it is made, and whether it left its ring (a
 * pending batch skips it). Kept beside the entry rather than in a WeakMap/WeakSet: two weak-table updates per
 * message cost more than the rest of recording, and ephemeron tables slow every garbage collection.
 */
interface Slot {
  entry: TrafficEntry;
  source: PayloadSource | undefined;
  evicted: boolean;
}

/** Methods whose display text is remembered at most (a server sending ever new method names cannot grow it). */
const METHOD_TEXTS = 64;

/** An id as shown: a number needs no sanitising (its text is digits, sign, point and exponent only). */
function idTextOf(id: string | number): string {
  return typeof id === 'number' ? truncate(String(id), 100) : truncate(sanitizeText(id), 100);
}

/** Records traffic of every session of one Host. */
export class TrafficLog implements TrafficSink {
  readonly #deps: TrafficLogDeps;
  readonly #rings = new Map<string, Slot[]>();
  readonly #seq = new Map<string, number>();
  readonly #open = new Map<string, Map<string, Open>>();
  readonly #secrets = new Map<string, string[]>();
  #batch: Slot[] = [];
  /** Recent methods with their display text (a method repeats on nearly every message: sanitised once). */
  readonly #methodText = new Map<string, string>();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(deps: TrafficLogDeps) {
    this.#deps = deps;
  }

  async prepare(serverId: string): Promise<void> {
    this.#secrets.set(serverId, await this.#deps.secretValues(serverId));
  }

  record(serverId: string, direction: 'out' | 'in', message: JSONRPCMessage, time?: number): void {
    const now = time ?? (this.#deps.now ?? Date.now)();
    const m = message as unknown as Record<string, unknown>;
    // As the transport read it, or counted (never printed: an 8 MiB message is not copied into a second string).
    const bytes = wireBytes(message) ?? jsonByteLength(message);
    const hasId = typeof m.id === 'string' || typeof m.id === 'number';
    const method = typeof m.method === 'string' ? m.method : undefined;
    const kind: TrafficKind = method !== undefined ? (hasId ? 'request' : 'notification') : isObject(m.error) ? 'error' : 'response';
    const idText = hasId ? idTextOf(m.id as string | number) : undefined;
    // The payload text is made when the entry is first read or sent, not here: under a flood most entries leave
    // the ring unseen. A small message is kept as it is until then; a large one as a bounded preview.
    const entry: TrafficEntry = {
      seq: this.#nextSeq(serverId),
      serverId,
      time: now,
      direction,
      kind,
      bytes,
      payload: '',
      truncated: false,
    };
    const secrets = this.#secrets.get(serverId) ?? [];
    const source: PayloadSource =
      bytes <= KEEP_WHOLE_BYTES ? { value: message, secrets, bytes } : { ...previewValue(message, keepChars(secrets)), secrets, bytes };
    if (idText !== undefined) entry.id = idText;
    const open = this.#openOf(serverId);
    if (kind === 'request' && method !== undefined && idText !== undefined) {
      open.set(`${direction}:${idText}`, { method, time: now });
      if (open.size > OPEN_REQUESTS) open.delete(open.keys().next().value as string);
    } else if ((kind === 'response' || kind === 'error') && idText !== undefined) {
      const key = `${direction === 'in' ? 'out' : 'in'}:${idText}`;
      const request = open.get(key);
      if (request) {
        open.delete(key);
        entry.method = request.method;
        entry.durationMs = Math.max(0, now - request.time);
      }
    }
    if (method !== undefined) entry.method = this.#methodTextOf(method);
    const slot: Slot = { entry, source, evicted: false };
    let ring = this.#rings.get(serverId);
    if (ring === undefined) {
      ring = [];
      this.#rings.set(serverId, ring);
    }
    ring.push(slot);
    if (kind === 'notification' && method === EVENT_NOTIFICATION_METHOD) this.#capEvents(ring);
    // shift, not splice: V8 drops an array's head in place, where a splice moves the whole ring on every message.
    while (ring.length > TRAFFIC_PER_SERVER) {
      const gone = ring.shift()!;
      gone.source = undefined;
      gone.evicted = true;
    }
    this.#queue(slot);
  }

  /** Recorded entries matching the filter, oldest first, at most `limit` (the newest ones). */
  entries(filter: TrafficFilter = {}, limit = 100_000): { entries: TrafficEntry[]; total: number } {
    const rings = filter.serverId ? [this.#rings.get(filter.serverId) ?? []] : [...this.#rings.values()];
    const all = rings
      .flat()
      .map((slot) => this.#formatted(slot))
      .filter((e) => matchesTraffic(e, filter));
    if (!filter.serverId) all.sort((a, b) => a.time - b.time || a.seq - b.seq);
    return { entries: all.slice(Math.max(0, all.length - limit)), total: all.length };
  }

  /** Forgets the recorded traffic of one server or all; announces it. */
  clear(serverId?: string): void {
    if (serverId === undefined) {
      this.#rings.clear();
      this.#batch = [];
    } else {
      this.#rings.delete(serverId);
      this.#batch = this.#batch.filter((slot) => slot.entry.serverId !== serverId);
    }
    this.#deps.events.emit('protocol.cleared', serverId === undefined ? {} : { serverId });
  }

  /** Drops everything about a removed server. */
  forget(serverId: string): void {
    this.#rings.delete(serverId);
    this.#open.delete(serverId);
    this.#secrets.delete(serverId);
    this.#seq.delete(serverId);
    this.#batch = this.#batch.filter((slot) => slot.entry.serverId !== serverId);
  }

  /** A session ended: its open requests will never be answered. */
  sessionClosed(serverId: string): void {
    this.#open.delete(serverId);
  }

  /** Sends any batched entries now (tests, shutdown). */
  flush(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    // Entries a flood pushed out of the ring before this flush are not sent (nor formatted).
    const entries = this.#batch.filter((slot) => !slot.evicted).map((slot) => this.#formatted(slot));
    this.#batch = [];
    if (entries.length > 0 && this.#deps.events.size > 0) this.#deps.events.emit('protocol.traffic', { entries });
  }

  /** The entry with its payload text, made on first use. */
  #formatted(slot: Slot): TrafficEntry {
    const source = slot.source;
    if (source === undefined) return slot.entry;
    slot.source = undefined;
    Object.assign(slot.entry, payloadText(source));
    return slot.entry;
  }

  /** A method's display text (sanitised and cut), remembered for the methods seen most recently. */
  #methodTextOf(method: string): string {
    let text = this.#methodText.get(method);
    if (text === undefined) {
      text = truncate(sanitizeText(method), 200);
      if (this.#methodText.size >= METHOD_TEXTS) this.#methodText.clear();
      this.#methodText.set(method, text);
    }
    return text;
  }

  /** Keeps at most EVENT_NOTIFICATIONS_PER_SERVER event notifications in the ring, dropping the oldest. */
  #capEvents(ring: Slot[]): void {
    let count = 0;
    let oldest = -1;
    for (let i = 0; i < ring.length; i++) {
      if (!isEventNotification(ring[i]!.entry)) continue;
      if (oldest < 0) oldest = i;
      count++;
    }
    if (count <= EVENT_NOTIFICATIONS_PER_SERVER || oldest < 0) return;
    const [gone] = ring.splice(oldest, 1);
    if (gone === undefined) return;
    gone.source = undefined;
    gone.evicted = true;
  }

  #nextSeq(serverId: string): number {
    const next = (this.#seq.get(serverId) ?? 0) + 1;
    this.#seq.set(serverId, next);
    return next;
  }

  #openOf(serverId: string): Map<string, Open> {
    let open = this.#open.get(serverId);
    if (!open) {
      open = new Map();
      this.#open.set(serverId, open);
    }
    return open;
  }

  #queue(slot: Slot): void {
    if (this.#deps.events.size === 0) return;
    this.#batch.push(slot);
    while (this.#batch.length > TRAFFIC_PER_SERVER * 4) this.#batch.shift();
    if (this.#timer) return;
    this.#timer = setTimeout(() => this.flush(), TRAFFIC_BATCH_MS);
    this.#timer.unref?.();
  }
}
