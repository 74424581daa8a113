// Bounds on tool-call arguments that come from outside the person's own window: a gateway client's tools/call and an
// MCP App's tools/call. They are checked where they enter, before anything asks, routes, records or forwards them, so
// a hostile caller cannot plant a value the history, the ask dialog or a bridge later fails to serialise (a ~600-deep
// object used to break `calls.history` for good). Refused, never cut: silently changing what a caller asked for would
// run a different call from the one it made.
import { AppError } from '../../../shared/errors.js';
import { formatSize } from '../../../shared/format-size.js';
import { jsonDepth } from './depth.js';
import { VIEW_MAX_DEPTH } from './limits.js';

/** Deepest nesting of call arguments accepted from a gateway client or an app (what the call form can show). */
export const ARGUMENTS_MAX_DEPTH = VIEW_MAX_DEPTH;
/** Largest call arguments (as JSON text, UTF-8 bytes) accepted from a gateway client or an app. */
export const ARGUMENTS_MAX_BYTES = 8 * 1024 * 1024;

/** Who sent the arguments, in the refusal's words ("The gateway client", "The app"). */
export type ArgumentsSender = string;

/**
 * Throws `limit_exceeded` when call arguments are nested deeper than ARGUMENTS_MAX_DEPTH or larger than
 * `maxBytes`; returns their size in bytes otherwise. The depth is checked first, without recursion, so the size is
 * only measured on a value JSON.stringify can walk.
 */
export function checkCallArguments(
  args: Record<string, unknown>,
  sender: ArgumentsSender,
  opts: { serverId?: string; maxBytes?: number } = {},
): number {
  const extra = opts.serverId === undefined ? {} : { serverId: opts.serverId };
  const depth = jsonDepth(args, ARGUMENTS_MAX_DEPTH);
  if (depth > ARGUMENTS_MAX_DEPTH) {
    throw new AppError(
      'limit_exceeded',
      `${sender}'s arguments are nested deeper than ${ARGUMENTS_MAX_DEPTH} levels (at most ${ARGUMENTS_MAX_DEPTH}); the call was not made`,
      extra,
    );
  }
  const maxBytes = opts.maxBytes ?? ARGUMENTS_MAX_BYTES;
  let bytes: number;
  try {
    bytes = Buffer.byteLength(JSON.stringify(args) ?? '{}', 'utf8');
  } catch {
    throw new AppError('limit_exceeded', `${sender}'s arguments cannot be read as JSON; the call was not made`, extra);
  }
  if (bytes > maxBytes) {
    throw new AppError(
      'limit_exceeded',
      `${sender}'s arguments are ${formatSize(bytes)} (at most ${formatSize(maxBytes)}); the call was not made`,
      extra,
    );
  }
  return bytes;
}
