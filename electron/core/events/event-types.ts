// Detection and listing of a server's event types: `events/list`, page by page, within the server's catalog
// budgets (pages, items, cursor size, repeated cursors). A type over the description or schema budget, a
// duplicate, or one offering no known delivery mode is skipped with a notice instead of failing the list.
// "Method not found" means the server has no events; a server that ignores the method is given the probe time.
import type { Client } from '@modelcontextprotocol/client';
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/config.js';
import type { EventDeliveryMode, EventTypeView, EventTypesResult } from '../../../shared/domains/events.js';
import { AppError } from '../../../shared/errors.js';
import { adaptSchema } from '../catalog/listing.js';
import { isObject } from '../json.js';
import { requestError } from '../resources/request-error.js';
import { sanitizeText } from '../text.js';
import { label } from './payload.js';
import { EventMethods, ListPageSchema } from './wire.js';

const MODES: readonly EventDeliveryMode[] = ['poll', 'push', 'webhook'];
/** At most this many notices are kept per listing (a hostile list could produce one per type). */
const MAX_NOTICES = 20;

const utf8 = (s: string): number => Buffer.byteLength(s, 'utf8');

/** Whether the server advertised `capabilities.events` (the SDK may drop unknown capabilities; absent proves nothing). */
export function advertisesEvents(client: Client): boolean {
  const caps = client.getServerCapabilities() as Record<string, unknown> | undefined;
  return isObject(caps) && isObject(caps['events']);
}

/** True for the answers that mean "this server has no events/list". */
function isMethodNotFound(err: unknown): boolean {
  return err instanceof ProtocolError && err.code === -32601;
}

function isTimeout(err: unknown): boolean {
  return SdkError.isInstance(err) && (err as SdkError).code === SdkErrorCode.RequestTimeout;
}

/** Checks one listed type against the budgets; returns it for display, or the reason it was skipped. */
function admit(raw: unknown, config: ServerConfig): EventTypeView | string {
  const limits = config.limits;
  if (!isObject(raw) || typeof raw['name'] !== 'string' || raw['name'].length === 0) return 'An event type without a name was skipped';
  const rawName = raw['name'];
  if (utf8(rawName) > 1024) return 'An event type with a name over 1 KiB was skipped';
  const shown = label(rawName, 80);
  // A name is an identifier sent back verbatim: one with control, bidi or escape characters is refused, not cleaned.
  if (sanitizeText(rawName) !== rawName) return `Event type "${shown}" was skipped: its name contains control or bidi characters`;
  const name = rawName;
  const description = raw['description'];
  if (description !== undefined && typeof description !== 'string') return `Event type "${shown}" was skipped: its description is not text`;
  if (typeof description === 'string' && utf8(description) > limits.descriptionBytes)
    return `Event type "${shown}" was skipped: its description is over ${limits.descriptionBytes} bytes`;
  const input = raw['inputSchema'] ?? { type: 'object', properties: {} };
  if (!isObject(input)) return `Event type "${shown}" was skipped: its input schema is not an object`;
  const payload = raw['payloadSchema'];
  if (payload !== undefined && !isObject(payload)) return `Event type "${shown}" was skipped: its payload schema is not an object`;
  const inputBytes = utf8(JSON.stringify(input));
  if (inputBytes > limits.schemaBytes)
    return `Event type "${shown}" was skipped: its input schema is ${inputBytes} bytes (budget ${limits.schemaBytes})`;
  const payloadBytes = payload === undefined ? 0 : utf8(JSON.stringify(payload));
  if (payloadBytes > limits.schemaBytes)
    return `Event type "${shown}" was skipped: its payload schema is ${payloadBytes} bytes (budget ${limits.schemaBytes})`;
  // `delivery` in the sketch; `deliveryModes` in one revision.
  const rawDelivery = Array.isArray(raw['delivery']) ? raw['delivery'] : Array.isArray(raw['deliveryModes']) ? raw['deliveryModes'] : [];
  const delivery = MODES.filter((m) => rawDelivery.includes(m));
  if (delivery.length === 0) return `Event type "${shown}" was skipped: it offers no delivery mode Switchboard can use`;
  return {
    name,
    description: typeof description === 'string' ? sanitizeText(description) : '',
    delivery,
    inputSchema: adaptSchema(input),
    ...(payload !== undefined ? { payloadSchema: adaptSchema(payload) } : {}),
  };
}

/** What one listing needs. */
export interface ListEventTypesOptions {
  /** The server definition (budgets and timeouts). */
  config: ServerConfig;
  /** Aborts the listing (server removed, service shut down). */
  signal?: AbortSignal;
  /** Clock (tests). */
  now?: () => number;
}

/**
 * Lists a server's event types. Resolves `supported: false` for a server without events; rejects with an AppError
 * when the list itself is unusable (too many pages or types, a cursor over budget or repeated) or the request failed.
 */
export async function listEventTypes(client: Client, o: ListEventTypesOptions): Promise<EventTypesResult> {
  const { config } = o;
  const serverId = config.id;
  const limits = config.limits;
  const now = o.now ?? Date.now;
  const advertised = advertisesEvents(client);
  // A server that never advertised events and ignores unknown methods gets the probe time, not the list time.
  const firstTimeoutMs = (advertised ? config.timeouts.listSecs : Math.min(config.timeouts.probeSecs, config.timeouts.listSecs)) * 1000;
  const deadline = now() + config.timeouts.listSecs * 1000;
  const notices: string[] = [];
  const notice = (text: string): void => {
    if (notices.length < MAX_NOTICES) notices.push(text);
    else if (notices.length === MAX_NOTICES) notices.push('More event types were skipped');
  };
  const types: EventTypeView[] = [];
  const names = new Set<string>();
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  for (let pages = 0; ; pages++) {
    if (pages >= limits.catalogPages)
      throw new AppError('limit_exceeded', `The event type list has more than ${limits.catalogPages} pages`, { serverId });
    const timeout = pages === 0 ? firstTimeoutMs : Math.max(1, deadline - now());
    let page;
    try {
      page = await client.request({ method: EventMethods.list, params: cursor === undefined ? {} : { cursor } }, ListPageSchema, {
        timeout,
        ...(o.signal ? { signal: o.signal } : {}),
      });
    } catch (err) {
      o.signal?.throwIfAborted();
      if (pages === 0 && isMethodNotFound(err)) return { serverId, supported: false, types: [], notices: [], checkedAt: now() };
      if (pages === 0 && !advertised && isTimeout(err)) {
        return {
          serverId,
          supported: false,
          types: [],
          notices: [`The server did not answer events/list within ${config.timeouts.probeSecs} s; treated as having no events`],
          checkedAt: now(),
        };
      }
      throw requestError(err, serverId, 'listing event types', Math.round(timeout / 1000));
    }
    for (const item of page.events) {
      const admitted = admit(item, config);
      if (typeof admitted === 'string') {
        notice(admitted);
        continue;
      }
      if (names.has(admitted.name)) {
        notice(`The event type "${label(admitted.name, 80)}" is listed twice; the first one is kept`);
        continue;
      }
      if (types.length >= limits.catalogItems)
        throw new AppError('limit_exceeded', `The server lists more than ${limits.catalogItems} event types`, { serverId });
      names.add(admitted.name);
      types.push(admitted);
    }
    const next = page.nextCursor;
    if (next === undefined) break;
    if (utf8(next) > limits.cursorBytes)
      throw new AppError('limit_exceeded', `An event list cursor is over ${limits.cursorBytes} bytes`, { serverId });
    if (seenCursors.has(next))
      throw new AppError('catalog_invalid', 'The server repeated an event list cursor (the listing would never end)', { serverId });
    seenCursors.add(next);
    cursor = next;
  }
  types.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { serverId, supported: true, types, notices, checkedAt: now() };
}
