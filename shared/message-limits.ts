// Size and depth bounds of messages that cross into the host: what an MCP app may send through its bridge, and what
// one bridge request may carry. One module so that the renderer (which refuses an app's message before relaying it)
// and the headless bridge (which refuses an oversized request without dropping the connection) agree.

/** Largest message an MCP app may send to the host, in serialised characters. */
export const APP_MESSAGE_MAX_BYTES = 4 * 1024 * 1024;
/** Deepest nesting (objects and arrays) an app's message may have. */
export const APP_MESSAGE_MAX_DEPTH = 64;
/** Largest request the headless bridge dispatches; a larger one is answered with `limit_exceeded`. */
export const BRIDGE_REQUEST_MAX_BYTES = 8 * 1024 * 1024;
/** Largest WebSocket frame the bridge reads at all: beyond it the connection is closed (protects the process). */
export const BRIDGE_FRAME_MAX_BYTES = 64 * 1024 * 1024;

/** Formats a byte count as MiB with one decimal, for refusals ("20.0 MiB"). */
export function formatMiB(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
