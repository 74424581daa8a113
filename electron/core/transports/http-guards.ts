// A fetch wrapper for the SDK's HTTP transports that enforces seed 000's security boundaries on every
// request: URL and header checks, redirects refused, response bodies and SSE events capped while they
// stream (never buffered whole), and content types checked. The SDK takes it through its `fetch` option.
import type { FetchLike } from '@modelcontextprotocol/client';
import { checkServerUrl, HeadersSchema } from '../../../shared/config.js';
import { AppError, type ErrorEvidence } from '../../../shared/errors.js';
import { depthReporter } from '../ingress/depth-stage.js';
import { JsonDepthCutter } from '../ingress/depth-text.js';
import { depthMarker, WIRE_MAX_DEPTH } from '../ingress/limits.js';
import { isDpopNonceChallenge } from './dpop-challenge.js';
import { responseIdFromEdges } from './line-reader.js';
import { LIMIT_EXCEEDED_RPC_CODE } from './stdout-messages.js';
import type { TransportLog } from './transport-factory.js';
import { formatSize } from '../../../shared/format-size.js';

/** The SSE event type a discarded over-limit event is turned into; neither SDK transport dispatches it. */
export const DISCARDED_EVENT_TYPE = 'switchboard-discarded';

/** What the guarded fetch is built from. */
export interface GuardOptions {
  /** Server id, carried in errors. */
  serverId: string;
  /** The configured server URL (custom headers go only to its origin). */
  serverUrl: string;
  /** Allow plain http to non-loopback hosts. */
  allowInsecureHttp: boolean;
  /** Custom headers from the config. */
  headers: Record<string, string>;
  /** Largest response body, and largest SSE event, in bytes. */
  messageBytes: number;
  /** Streamable HTTP checks POST content types; legacy SSE POSTs are answered with a body the SDK ignores. */
  kind: 'http' | 'sse';
  /** Log sink. */
  log: TransportLog;
  /** Non-fatal problems found while a stream goes on (an SSE event dropped for its size). */
  report: (error: AppError) => void;
}

/** The guarded fetch plus what it observed, for diagnostics. */
export interface GuardedFetch {
  /** Pass this as the SDK transport's `fetch` option. */
  fetch: FetchLike;
  /** URL and status of the last refused or failed response. */
  evidence(): ErrorEvidence;
  /** The last refusal raised by the guard (AppError), if any, with when it happened. */
  lastRefusal(): { error: AppError; at: number } | undefined;
}

/** Returns an AppError when custom headers break the rules (forbidden names, CR/LF/NUL), else null. */
export function checkHeaders(headers: Record<string, string>, serverId?: string): AppError | null {
  const parsed = HeadersSchema.safeParse(headers);
  if (parsed.success) return null;
  const message = parsed.error.issues.map((i) => i.message).join('; ');
  return new AppError('config_invalid', `Custom headers refused: ${message}`, serverId !== undefined ? { serverId } : {});
}

/** The URL without credentials, query or fragment (they may carry secrets), for messages and evidence. */
export function displayUrl(raw: string): string {
  try {
    const u = new URL(raw);
    u.username = '';
    u.password = '';
    u.search = '';
    u.hash = '';
    return u.href;
  } catch {
    return '(invalid URL)';
  }
}

/** Media type without parameters, lower-cased. */
function mediaType(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Builds the guarded fetch. */
export function createGuardedFetch(opts: GuardOptions, baseFetch: FetchLike = fetch): GuardedFetch {
  let serverOrigin: string | undefined;
  let serverEndpoint: URL | undefined;
  try {
    serverEndpoint = new URL(opts.serverUrl);
    serverOrigin = serverEndpoint.origin;
  } catch {
    serverOrigin = undefined;
  }
  let lastStatus: { url: string; httpStatus: number } | undefined;
  let refusal: { error: AppError; at: number } | undefined;
  const ids = { serverId: opts.serverId };
  const reportDeep = depthReporter((level, text) => opts.log('protocol', level, text));

  const refuse = (error: AppError): never => {
    refusal = { error, at: Date.now() };
    opts.log('protocol', 'error', error.message);
    throw error;
  };

  const guarded: FetchLike = async (input, init) => {
    const href = typeof input === 'string' ? input : input.href;
    const shown = displayUrl(href);
    const urlProblem = checkServerUrl(href, opts.allowInsecureHttp);
    if (urlProblem !== null) refuse(new AppError('url_refused', `${urlProblem}: ${shown}`, { ...ids, evidence: { url: shown } }));
    const headerProblem = checkHeaders(opts.headers, opts.serverId);
    if (headerProblem !== null) refuse(headerProblem);

    const headers = new Headers(init?.headers);
    if (serverOrigin !== undefined && new URL(href).origin === serverOrigin) {
      // Custom headers go to the server's own origin only (never to OAuth or other hosts).
      for (const [name, value] of Object.entries(opts.headers)) if (!headers.has(name)) headers.set(name, value);
    }
    const method = (init?.method ?? 'GET').toUpperCase();
    const response = await baseFetch(href, { ...init, headers, redirect: 'manual' });
    const status = response.status;
    const evidence: ErrorEvidence = { url: shown, httpStatus: status };

    if ((status >= 300 && status < 400) || response.type === 'opaqueredirect') {
      await response.body?.cancel().catch(() => undefined);
      lastStatus = { url: shown, httpStatus: status };
      const location = response.headers.get('location');
      const to = location !== null ? ` to ${displayUrl(new URL(location, href).href)}` : '';
      refuse(
        new AppError(
          'redirect_refused',
          `The server answered ${method} ${shown} with a redirect (HTTP ${status})${to}; redirects are refused — configure the final URL instead`,
          {
            ...ids,
            evidence,
          },
        ),
      );
    }

    const declared = Number(response.headers.get('content-length') ?? 'NaN');
    if (Number.isFinite(declared) && declared > opts.messageBytes) {
      await response.body?.cancel().catch(() => undefined);
      lastStatus = { url: shown, httpStatus: status };
      refuse(
        new AppError(
          'limit_exceeded',
          `The response from ${shown} is ${declared} bytes, over the ${formatSize(opts.messageBytes)} limit (limits.messageBytes)`,
          {
            ...ids,
            evidence,
          },
        ),
      );
    }

    const type = mediaType(response.headers.get('content-type'));
    if (status < 200 || status > 299) {
      lastStatus = { url: shown, httpStatus: status };
      if (await isDpopNonceChallenge(response)) {
        opts.log('protocol', 'info', `${method} ${shown} asked for a fresh DPoP nonce (use_dpop_nonce, HTTP ${status}); retrying with it`);
      } else {
        opts.log('protocol', 'warning', `HTTP ${status} from ${method} ${shown}`);
      }
    } else if (status !== 202 && status !== 204) {
      // Only the MCP endpoint itself speaks MCP; OAuth discovery and token requests (other paths) answer JSON.
      const target = new URL(href);
      const isEndpoint =
        serverEndpoint === undefined || (target.origin === serverEndpoint.origin && target.pathname === serverEndpoint.pathname);
      const expectsMcp = isEndpoint && ((method === 'POST' && opts.kind === 'http') || method === 'GET');
      const allowed = method === 'GET' ? ['text/event-stream'] : ['application/json', 'text/event-stream'];
      if (expectsMcp && !allowed.includes(type)) {
        await response.body?.cancel().catch(() => undefined);
        lastStatus = { url: shown, httpStatus: status };
        refuse(
          new AppError(
            'http_error',
            `Unexpected content type "${type || '(none)'}" from ${method} ${shown} (expected ${allowed.join(' or ')})`,
            {
              ...ids,
              evidence,
            },
          ),
        );
      }
    }

    if (response.body === null || status === 204 || status === 205 || status === 304) return response;
    const onDeep = (): void => reportDeep(`${method} ${shown}`);
    const requestIds = method === 'POST' ? requestIdsOf(init?.body) : [];
    const limited =
      type === 'text/event-stream'
        ? limitSseEvents(response.body, {
            limit: opts.messageBytes,
            onDeep,
            onDiscarded: () => {
              const error = new AppError(
                'limit_exceeded',
                `An event from ${shown} is larger than the ${formatSize(opts.messageBytes)} limit (limits.messageBytes) and was discarded`,
                { ...ids, evidence },
              );
              opts.log('protocol', 'warning', error.message);
              opts.report(error);
            },
            // A discarded response fails its request at once, as on stdio, instead of leaving it to time out.
            replacement: (head, tail, total) => oversizedAnswer(head, tail, total, requestIds, opts.messageBytes),
          })
        : limitBody(response.body, opts.messageBytes, onDeep, () => {
            const error = new AppError(
              'limit_exceeded',
              `The response from ${shown} is larger than the ${formatSize(opts.messageBytes)} limit (limits.messageBytes)`,
              { ...ids, evidence },
            );
            refusal = { error, at: Date.now() };
            opts.log('protocol', 'error', error.message);
            return error;
          });
    return new Response(limited, { status, statusText: response.statusText, headers: response.headers });
  };

  return {
    fetch: guarded,
    evidence: () => (lastStatus !== undefined ? { ...lastStatus } : { url: displayUrl(opts.serverUrl) }),
    lastRefusal: () => refusal,
  };
}

/** Ids of the JSON-RPC requests in a POST body (one message or a batch); none when it holds only notifications. */
export function requestIdsOf(body: unknown): (string | number)[] {
  if (typeof body !== 'string') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const ids: (string | number)[] = [];
  for (const m of Array.isArray(parsed) ? parsed : [parsed]) {
    if (typeof m !== 'object' || m === null) continue;
    const { id, method } = m as { id?: unknown; method?: unknown };
    if (typeof method === 'string' && (typeof id === 'string' || typeof id === 'number')) ids.push(id);
  }
  return ids;
}

/**
 * The synthetic SSE event answering the request a discarded event carried the response to: its id read from the
 * event's ends, or — when the ends do not show it but the event is no request or notification — the one request of
 * the POST the stream answers. Undefined when the request cannot be told.
 */
function oversizedAnswer(
  head: Buffer,
  tail: Buffer,
  total: number,
  requestIds: readonly (string | number)[],
  limit: number,
): string | undefined {
  let id = responseIdFromEdges(head, tail);
  const headText = head.toString('utf8');
  if (id === undefined && requestIds.length === 1 && /^\s*\{/.test(headText) && !/"method"\s*:/.test(headText)) id = requestIds[0];
  if (id === undefined) return undefined;
  const message = `The server's response (${formatSize(total)}) is larger than the ${formatSize(limit)} limit (limits.messageBytes) and was discarded`;
  const answer = { jsonrpc: '2.0', id, error: { code: LIMIT_EXCEEDED_RPC_CODE, message, data: { code: 'limit_exceeded', bytes: total } } };
  return `event: message\ndata: ${JSON.stringify(answer)}\n\n`;
}

/** A cutter of JSON nested deeper than the wire limit (see ingress/depth-text.ts). */
function wireCutter(): JsonDepthCutter {
  return new JsonDepthCutter(WIRE_MAX_DEPTH, depthMarker(WIRE_MAX_DEPTH));
}

/**
 * Passes a body through, erroring the stream with `onExceeded()`'s error once more than `limit` bytes arrived, and
 * cutting JSON nested deeper than the wire limit out of it (`onDeep` is called once when that happened).
 */
export function limitBody(
  body: ReadableStream<Uint8Array>,
  limit: number,
  onDeep: () => void,
  onExceeded: () => Error,
): ReadableStream<Uint8Array> {
  let total = 0;
  const cutter = wireCutter();
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        total += chunk.byteLength;
        if (total > limit) {
          controller.error(onExceeded());
          return;
        }
        for (const part of cutter.push(chunk)) controller.enqueue(part);
      },
      flush() {
        if (cutter.cut) onDeep();
      },
    }),
  );
}

const DATA_FIELD = new TextEncoder().encode('data:');

/** True when the line held in `parts` (then `last`) starts with the SSE field name "data:". */
function isDataLine(parts: readonly Uint8Array[], last: Uint8Array): boolean {
  let matched = 0;
  for (const part of [...parts, last]) {
    for (let i = 0; i < part.length && matched < DATA_FIELD.length; i++, matched++) if (part[i] !== DATA_FIELD[matched]) return false;
    if (matched === DATA_FIELD.length) return true;
  }
  return false;
}

const LF = 0x0a;
const CR = 0x0d;
const encoder = new TextEncoder();

/** How many bytes of each end of a discarded event are kept, to tell which request it answered. */
const EDGE_BYTES = 256;

/** What limitSseEvents does besides passing events through. */
export interface SseLimits {
  /** Largest event, comment lines included. */
  limit: number;
  /** Some event's JSON was cut at the wire depth limit. */
  onDeep(): void;
  /** An event went over the limit and is being discarded. */
  onDiscarded(): void;
  /**
   * The text of a replacement for a discarded event, given its first and last bytes (data lines without their
   * field name) and its size: typically a synthetic error answering the request it carried the response to, so
   * that request fails at once. Undefined: the event is dropped (turned into an event type no SDK dispatches).
   */
  replacement?(head: Buffer, tail: Buffer, totalBytes: number): string | undefined;
}

/**
 * Passes an SSE stream through, capping each event (all its lines, comments included, up to the blank line
 * that ends it) at `limit` bytes. Complete lines are forwarded as they arrive; only the current unfinished line
 * is held (at most `limit` bytes). When an event goes over the limit, the rest of it is dropped and it is closed
 * as its replacement (see SseLimits.replacement) or as an event of type {@link DISCARDED_EVENT_TYPE}, which the SDK
 * ignores, so the stream and the session go on. JSON in data lines is cut at the wire depth limit as it passes.
 */
export function limitSseEvents(body: ReadableStream<Uint8Array>, o: SseLimits): ReadableStream<Uint8Array> {
  const { limit } = o;
  // The data lines of one event form one JSON text: they are cut at the wire depth limit as they pass.
  const cutter = wireCutter();
  let eventBytes = 0;
  let lineParts: Uint8Array[] = [];
  let lineLen = 0;
  let afterCR = false;
  let discarding = false;
  let head: Buffer = Buffer.alloc(0);
  let tail: Buffer = Buffer.alloc(0);

  const keepTail = (piece: Uint8Array): void => {
    tail =
      piece.length >= EDGE_BYTES
        ? Buffer.from(piece.subarray(piece.length - EDGE_BYTES))
        : Buffer.concat([tail, piece]).subarray(-EDGE_BYTES);
  };
  /** Starts discarding the current event; `piece` is the part of the current line not yet held. */
  const overflow = (piece: Uint8Array): void => {
    if (discarding) return;
    discarding = true;
    const start = Buffer.concat([...lineParts, piece].map((p) => p.subarray(0, EDGE_BYTES + 8))).subarray(0, EDGE_BYTES + 8);
    head = isDataLine([], start) ? start.subarray(start[5] === 0x20 ? 6 : 5) : Buffer.alloc(0);
    tail = Buffer.alloc(0);
    keepTail(Buffer.concat([...lineParts, piece]).subarray(-EDGE_BYTES));
    lineParts = [];
    lineLen = 0;
    o.onDiscarded();
  };
  const closeDiscarded = (): Uint8Array => {
    const total = eventBytes;
    const text = o.replacement?.(head, tail, total);
    head = Buffer.alloc(0);
    tail = Buffer.alloc(0);
    return encoder.encode(text ?? `event: ${DISCARDED_EVENT_TYPE}\n\n`);
  };

  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        const n = chunk.length;
        let i = 0;
        let nextCR = chunk.indexOf(CR, 0);
        while (i < n) {
          if (afterCR) {
            afterCR = false;
            if (chunk[i] === LF) {
              // Second half of a CRLF that ended the previous line.
              if (!discarding) controller.enqueue(chunk.subarray(i, i + 1));
              eventBytes += 1;
              i++;
              continue;
            }
          }
          if (nextCR !== -1 && nextCR < i) nextCR = chunk.indexOf(CR, i);
          const nextLF = chunk.indexOf(LF, i);
          const end = nextLF === -1 ? nextCR : nextCR === -1 ? nextLF : Math.min(nextLF, nextCR);
          if (end === -1) {
            const piece = chunk.subarray(i);
            eventBytes += piece.length;
            if (discarding) keepTail(piece);
            else if (eventBytes > limit) overflow(piece);
            else {
              lineParts.push(piece);
              lineLen += piece.length;
            }
            return;
          }
          const piece = chunk.subarray(i, end);
          const blank = lineLen === 0 && piece.length === 0;
          eventBytes += piece.length + 1;
          if (!blank && discarding) keepTail(piece);
          else if (!blank && eventBytes > limit) overflow(piece);
          if (blank) {
            if (discarding) {
              controller.enqueue(closeDiscarded());
              discarding = false;
            } else {
              controller.enqueue(chunk.subarray(end, end + 1));
            }
            if (cutter.cut) o.onDeep();
            cutter.reset();
            eventBytes = 0;
          } else if (!discarding) {
            const rest = chunk.subarray(i, end + 1);
            if (isDataLine(lineParts, rest)) {
              // "data:" and the line end hold no JSON structure, so the whole line can go through the cutter.
              for (const part of [...lineParts, rest]) for (const kept of cutter.push(part)) controller.enqueue(kept);
            } else {
              for (const part of lineParts) controller.enqueue(part);
              controller.enqueue(rest);
            }
          }
          lineParts = [];
          lineLen = 0;
          afterCR = chunk[end] === CR;
          i = end + 1;
        }
      },
      flush(controller) {
        if (!discarding) for (const part of lineParts) controller.enqueue(part);
      },
    }),
  );
}
