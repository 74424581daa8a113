// Classifies what an events request or notification failed with. Both generations of the extension's draft codes
// are understood (-32011..-32015 and -32023..-32027, same order: not found, forbidden, resource exhausted,
// unsupported, callback endpoint), with the JSON-RPC invalid-params and method-not-found codes and the SDK's
// transport errors. `data.reason` / `data.kind` are kept in the reason (sanitized, short).
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { AppError } from '../../../shared/errors.js';
import { isObject } from '../json.js';
import { isAuthFailure } from '../sessions/doctor.js';
import { label } from './payload.js';

/** What kind of failure it was. */
export type EventFailureKind =
  | 'not_found'
  | 'forbidden'
  | 'resource_exhausted'
  | 'unsupported'
  | 'callback_endpoint'
  | 'invalid_arguments'
  | 'authorization'
  | 'session'
  | 'timeout'
  | 'other';

/** A classified failure: whether it ends the subscription, and why in plain words. */
export interface EventFailure {
  /** Failure kind. */
  kind: EventFailureKind;
  /** True when retrying cannot help: the subscription ends with the reason. */
  terminal: boolean;
  /** Plain-words reason (server text sanitized and cut). */
  reason: string;
  /** JSON-RPC error code, when the server sent one. */
  code?: number;
  /**
   * The server ended it because the event type was removed (`not_found` with `data.kind: "event"`) or its schema
   * changed in place (`unsupported` with `data.reason: "schema_changed"`): list the types again and resubscribe.
   */
  schemaChange?: 'removed' | 'changed';
}

/** Draft codes of the extension, by meaning: [earlier generation, current generation]. */
export const EVENT_ERROR_CODES = {
  not_found: [-32011, -32023],
  forbidden: [-32012, -32024],
  resource_exhausted: [-32013, -32025],
  unsupported: [-32014, -32026],
  callback_endpoint: [-32015, -32027],
} as const;

const BY_CODE = new Map<number, keyof typeof EVENT_ERROR_CODES>();
for (const [kind, codes] of Object.entries(EVENT_ERROR_CODES) as [keyof typeof EVENT_ERROR_CODES, readonly number[]][])
  for (const code of codes) BY_CODE.set(code, kind);

const PHRASE: Record<EventFailureKind, string> = {
  not_found: 'The server does not know this event type',
  forbidden: 'The server refused access to these events',
  resource_exhausted: 'The server reached a limit',
  unsupported: 'The server does not support this here',
  callback_endpoint: 'The server could not reach or verify the callback URL',
  invalid_arguments: 'The server refused the subscription arguments',
  authorization: 'The server needs you to sign in again',
  session: 'The connection to the server ended',
  timeout: 'The server did not answer in time',
  other: 'The server reported an error',
};

const TERMINAL: ReadonlySet<EventFailureKind> = new Set(['not_found', 'forbidden', 'unsupported', 'invalid_arguments', 'authorization']);

/** The `data.reason` / `data.kind` / `data.feature` details of a server error, as a short label. */
function details(data: unknown): string | undefined {
  if (!isObject(data)) return undefined;
  const parts: string[] = [];
  for (const key of ['reason', 'kind', 'feature', 'value', 'limit']) {
    const v = data[key];
    if (typeof v === 'string' || typeof v === 'number') parts.push(`${key}: ${label(String(v), 120)}`);
  }
  return parts.length > 0 ? parts.join(', ') : undefined;
}

function build(kind: EventFailureKind, serverText: string | undefined, code?: number): EventFailure {
  const extra = serverText ? ` (${serverText})` : '';
  return { kind, terminal: TERMINAL.has(kind), reason: `${PHRASE[kind]}${extra}`, ...(code !== undefined ? { code } : {}) };
}

/** Whether a not-found / unsupported error says the event type itself went away or changed (the sketch's discriminators). */
function schemaChangeOf(kind: EventFailureKind, data: unknown): EventFailure['schemaChange'] {
  if (!isObject(data)) return undefined;
  if (kind === 'not_found' && data['kind'] === 'event') return 'removed';
  if (kind === 'unsupported' && data['reason'] === 'schema_changed') return 'changed';
  return undefined;
}

/** Classifies a JSON-RPC error object sent by the server (a request's error, or an error/terminated notification). */
export function classifyWireError(code: number, message: string | undefined, data: unknown): EventFailure {
  const text = [message ? label(message, 200) : undefined, details(data)].filter((s) => s !== undefined && s !== '').join('; ');
  const byCode = BY_CODE.get(code);
  if (byCode) {
    const failure = build(byCode, text, code);
    const schemaChange = schemaChangeOf(byCode, data);
    return schemaChange ? { ...failure, schemaChange } : failure;
  }
  if (code === -32602) return build('invalid_arguments', text, code);
  if (code === -32601) return { kind: 'unsupported', terminal: true, reason: 'The server does not offer this events method', code };
  return build('other', text ? `${code}: ${text}` : String(code), code);
}

/** Classifies anything an events request threw. */
export function classifyEventError(err: unknown): EventFailure {
  if (err instanceof ProtocolError) return classifyWireError(err.code, err.message, err.data);
  if (isAuthFailure(err) || (err instanceof AppError && err.code === 'authorization_required')) return build('authorization', undefined);
  if (err instanceof AppError) {
    if (err.code === 'connection_closed' || err.code === 'process_exited') return build('session', undefined);
    if (err.code === 'timeout') return build('timeout', undefined);
    return build('other', label(err.message, 200));
  }
  if (SdkError.isInstance(err)) {
    const e = err as SdkError;
    if (e.code === SdkErrorCode.ConnectionClosed || e.code === SdkErrorCode.NotConnected) return build('session', undefined);
    if (e.code === SdkErrorCode.RequestTimeout) return build('timeout', undefined);
    if (e.code === SdkErrorCode.MethodNotSupportedByProtocolVersion) return build('unsupported', 'not in this protocol version');
    return build('other', label(e.message, 200));
  }
  if (err instanceof Error && err.message === 'Not connected') return build('session', undefined);
  return build('other', err instanceof Error ? label(err.message, 200) : undefined);
}
