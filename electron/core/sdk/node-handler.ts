// The SDK's Node adapter, typed for node:http. Its structural request type spells `method?: string` while
// @types/node declares `method: string | undefined`; under exactOptionalPropertyTypes those differ only in spelling,
// so the one cast that bridges them lives here instead of at every server.
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  toNodeHandler,
  type FetchLikeMcpHandler,
  type NodeIncomingMessageLike,
  type ToNodeHandlerOptions,
} from '@modelcontextprotocol/node';

/** A node:http request handler serving an MCP fetch handler. */
export type NodeHttpHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** Wraps an MCP fetch handler (or the SDK's HTTP handler) for `http.createServer`. */
export function nodeHttpHandler(handler: FetchLikeMcpHandler, options?: ToNodeHandlerOptions): NodeHttpHandler {
  const handle = toNodeHandler(handler, options);
  return (req, res) => handle(req as unknown as NodeIncomingMessageLike, res);
}
