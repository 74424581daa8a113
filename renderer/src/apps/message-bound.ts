// The bound on what an MCP app may send the host: its message's serialised size and nesting depth, measured by one
// iterative walk that stops as soon as either bound is passed (a hostile message is never serialised or recursed
// into whole). A refused request is answered to the app with a JSON-RPC error; it never reaches AppBridge or the core.
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { APP_MESSAGE_MAX_BYTES, APP_MESSAGE_MAX_DEPTH, formatMiB } from '../../../shared/message-limits';

/** The bounds (tests may pass smaller ones). */
export interface MessageBounds {
  maxBytes: number;
  maxDepth: number;
}

/** The default bounds of an app's message. */
export const APP_MESSAGE_BOUNDS: Readonly<MessageBounds> = { maxBytes: APP_MESSAGE_MAX_BYTES, maxDepth: APP_MESSAGE_MAX_DEPTH };

/** JSON-RPC error code of a refused oversized message (the implementation-defined server error range). */
export const MESSAGE_TOO_LARGE_CODE = -32000;

/** Whether a message is within bounds, and why not. */
export type BoundCheck = { ok: true } | { ok: false; reason: string };

/**
 * Checks `value` against the bounds. Sizes count JSON characters (strings by their length plus quotes, numbers by
 * their decimal form, punctuation), close to the byte length of the serialised message for ordinary text.
 */
export function checkMessageBounds(value: unknown, bounds: MessageBounds = APP_MESSAGE_BOUNDS): BoundCheck {
  let size = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v === 'string') size += v.length + 2;
    else if (typeof v === 'number' || typeof v === 'boolean') size += String(v).length;
    else if (v === null || v === undefined) size += 4;
    else if (typeof v === 'object') {
      if (depth + 1 > bounds.maxDepth) {
        return { ok: false, reason: `The app's message is nested more than ${bounds.maxDepth} levels deep` };
      }
      size += 2;
      if (Array.isArray(v)) {
        for (const item of v as unknown[]) {
          size += 1;
          stack.push([item, depth + 1]);
        }
      } else {
        for (const [key, item] of Object.entries(v as Record<string, unknown>)) {
          size += key.length + 4;
          stack.push([item, depth + 1]);
        }
      }
    } else size += 4;
    if (size > bounds.maxBytes) {
      return { ok: false, reason: `The app's message is larger than ${formatMiB(bounds.maxBytes)}, the most an app may send` };
    }
  }
  return { ok: true };
}

/** The JSON-RPC error answering a refused request (`data.code` is the typed error code). */
export function refusalFor(id: string | number, reason: string): JSONRPCMessage {
  return {
    jsonrpc: '2.0',
    id,
    error: { code: MESSAGE_TOO_LARGE_CODE, message: reason, data: { code: 'limit_exceeded', message: reason } },
  };
}
