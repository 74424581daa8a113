// The transport factory the session manager calls: one fresh transport per lifecycle attempt.
import { openHttpTransport } from './http-transport.js';
import { openStdioTransport } from './stdio-transport.js';
import type { TransportFactory } from './transport-factory.js';

/** Opens a transport for the server's configured transport type (stdio, Streamable HTTP or legacy SSE). */
export const createTransport: TransportFactory = (ctx) => {
  switch (ctx.config.transport.type) {
    case 'stdio':
      return openStdioTransport(ctx);
    case 'http':
    case 'sse':
      return openHttpTransport(ctx);
  }
};
