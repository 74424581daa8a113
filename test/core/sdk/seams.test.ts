// Every SDK seam (electron/core/sdk/seams.ts) against the installed SDK, with real Client and server pairs over the
// SDK's in-memory transport: each test names its seam, so an SDK upgrade that moves one fails here by name.
import { Client, InMemoryTransport, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  deferResponseDispatch,
  interceptClosed,
  interceptIncoming,
  interceptOutgoing,
  missingSeams,
  outboundMetaEnvelope,
  Seams,
} from '../../../electron/core/sdk/seams.js';

const MODERN = '2026-07-28';
const PROTOCOL_VERSION_META = 'io.modelcontextprotocol/protocolVersion';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close().catch(() => undefined);
});

/** A test server: `meta` answers with the request's `_meta`, `progress` reports `steps` updates right before answering. */
function createServer(): McpServer {
  const server = new McpServer({ name: 'seams', version: '1' }, { capabilities: { tools: {} } });
  server.registerTool('meta', { inputSchema: z.object({}) }, (_args, ctx) => ({
    content: [{ type: 'text', text: JSON.stringify(ctx.mcpReq._meta ?? {}) }],
  }));
  server.registerTool('progress', { inputSchema: z.object({ steps: z.number().int() }) }, async ({ steps }, ctx) => {
    const token = ctx.mcpReq._meta?.progressToken;
    if (token !== undefined)
      for (let i = 1; i <= steps; i++)
        await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps } });
    return { content: [{ type: 'text', text: 'done' }] };
  });
  return server;
}

interface Pair {
  client: Client;
  clientSide: InMemoryTransport;
  serverSide: InMemoryTransport;
}

/**
 * A client and a `serveStdio` server (both eras, as the built-in servers run) over linked in-memory transports.
 * `beforeConnect` runs on the fresh client and its transport, before connect.
 */
async function pair(era: 'legacy' | 'modern', beforeConnect?: (client: Client, transport: InMemoryTransport) => void): Promise<Pair> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = serveStdio(createServer, { transport: serverSide });
  const client = new Client(
    { name: 'seams-test', version: '1' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: MODERN } } } : {},
  );
  beforeConnect?.(client, clientSide);
  await client.connect(clientSide);
  closers.push(async () => {
    await client.close();
    await handle.close();
  });
  return { client, clientSide, serverSide };
}

function text(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((c) => c.text ?? '').join('');
}

describe(`seam ${Seams.outboundEnvelope}`, () => {
  it('is still a method of Client', () => {
    expect(missingSeams(), `SDK seam "${Seams.outboundEnvelope}": Client no longer has the method`).not.toContain(Seams.outboundEnvelope);
  });

  it('returns, on a 2026-07-28 connection, the envelope the SDK puts on its own requests', async () => {
    const sent: JSONRPCMessage[] = [];
    const { client } = await pair('modern', (_client, transport) => {
      const send = transport.send.bind(transport);
      transport.send = (message, options) => {
        sent.push(message);
        return send(message, options);
      };
    });
    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
    const envelope = outboundMetaEnvelope(client);
    expect(envelope, `SDK seam "${Seams.outboundEnvelope}": no envelope on a ${MODERN} connection`).toBeDefined();
    expect(envelope?.[PROTOCOL_VERSION_META], `SDK seam "${Seams.outboundEnvelope}": the envelope lost the protocol version`).toBe(MODERN);
    await client.listTools();
    const list = sent.find((m) => 'method' in m && m.method === 'tools/list');
    const meta = (list as { params?: { _meta?: Record<string, unknown> } } | undefined)?.params?._meta;
    expect(meta, `SDK seam "${Seams.outboundEnvelope}": the SDK's own request carries a different envelope`).toMatchObject(envelope ?? {});
  });

  it('returns nothing on a legacy connection (raw requests then name the negotiated version themselves)', async () => {
    const { client } = await pair('legacy');
    expect(client.getNegotiatedProtocolVersion()).not.toBe(MODERN);
    expect(outboundMetaEnvelope(client), `SDK seam "${Seams.outboundEnvelope}": a legacy connection now has an envelope`).toBeUndefined();
  });
});

describe(`seam ${Seams.responseDispatch}`, () => {
  it('is still a method of Client', () => {
    expect(missingSeams(), `SDK seam "${Seams.responseDispatch}": Client no longer has the method`).not.toContain(Seams.responseDispatch);
  });

  it('keeps every progress notification a server sends right before answering ahead of the answer', async () => {
    let installed = false;
    const { client, serverSide } = await pair('legacy', (c) => {
      installed = deferResponseDispatch(c);
    });
    // Deliver the server's progress together with the response that follows it, in one synchronous burst, as a stdio
    // read delivers the lines of one chunk: that is when the SDK handled the response before the progress.
    const send = serverSide.send.bind(serverSide);
    const held: JSONRPCMessage[] = [];
    serverSide.send = async (message, options) => {
      if ('method' in message && message.method === 'notifications/progress') {
        held.push(message);
        return;
      }
      for (const m of held.splice(0)) void send(m);
      return send(message, options);
    };
    expect(installed, `SDK seam "${Seams.responseDispatch}": could not be installed`).toBe(true);
    const steps = 3;
    for (let call = 0; call < 20; call++) {
      const seen: number[] = [];
      const result = await client.callTool({ name: 'progress', arguments: { steps } }, { onprogress: (p) => seen.push(p.progress) });
      expect(text(result)).toBe('done');
      expect(seen, `SDK seam "${Seams.responseDispatch}": call ${call} lost progress that came before its response`).toEqual([1, 2, 3]);
    }
  });
});

describe(`seam ${Seams.incoming}`, () => {
  it('finds no handler before connect, and the Client’s handler after it, in both eras', async () => {
    const [lonely] = InMemoryTransport.createLinkedPair();
    expect(interceptIncoming(lonely, () => false)).toBe(false);
    for (const era of ['legacy', 'modern'] as const) {
      const { clientSide } = await pair(era);
      expect(
        interceptIncoming(clientSide, () => false),
        `SDK seam "${Seams.incoming}": no handler after a ${era} connect`,
      ).toBe(true);
    }
  });

  it('sees every received message first, and what it consumes never reaches the Client', async () => {
    const { client, clientSide, serverSide } = await pair('modern');
    const errors: string[] = [];
    client.onerror = (error) => errors.push(error.message);
    const seen: string[] = [];
    interceptIncoming(clientSide, (message) => {
      if ('id' in message && message.id === 'ours') {
        seen.push('ours');
        return true;
      }
      if ('result' in message) seen.push('response');
      return false;
    });
    // A response to an id the Client never sent: the Client would report it as unknown if it saw it.
    await serverSide.send({ jsonrpc: '2.0', id: 'ours', result: {} });
    await client.listTools();
    await client.listTools();
    expect(seen, `SDK seam "${Seams.incoming}": the filter stopped seeing messages (the Client replaced the handler?)`).toEqual([
      'ours',
      'response',
      'response',
    ]);
    expect(errors, `SDK seam "${Seams.incoming}": a consumed message reached the Client`).toEqual([]);
  });
});

describe(`seam ${Seams.outgoing}`, () => {
  it('sees the version negotiation when installed before connect', async () => {
    const methods: string[] = [];
    await pair('modern', (_client, transport) =>
      interceptOutgoing(transport, (message) => {
        if ('method' in message) methods.push(message.method);
        return undefined;
      }),
    );
    expect(methods, `SDK seam "${Seams.outgoing}": the negotiation did not go through transport.send`).toContain('server/discover');
  });

  it('passes what the Client sends after connect through the rewrite, and the rewrite reaches the server', async () => {
    const { client, clientSide } = await pair('legacy');
    interceptOutgoing(clientSide, (message, options) => {
      if (!('method' in message) || message.method !== 'tools/call' || !('params' in message)) return undefined;
      const params = (message.params ?? {}) as Record<string, unknown>;
      const meta = (params['_meta'] ?? {}) as Record<string, unknown>;
      const rewritten = { ...message, params: { ...params, _meta: { ...meta, 'test/rewritten': true } } } as JSONRPCMessage;
      return { message: rewritten, ...(options ? { options } : {}) };
    });
    const result = await client.callTool({ name: 'meta', arguments: {} });
    expect(JSON.parse(text(result)), `SDK seam "${Seams.outgoing}": the Client no longer sends through transport.send`).toMatchObject({
      'test/rewritten': true,
    });
  });
});

describe(`seam ${Seams.closed}`, () => {
  it('runs before the Client’s own teardown when the server goes away', async () => {
    const [lonely] = InMemoryTransport.createLinkedPair();
    expect(interceptClosed(lonely, () => undefined)).toBe(false);
    const { client, clientSide, serverSide } = await pair('legacy');
    const order: string[] = [];
    const closed = new Promise<void>((resolve) => {
      client.onclose = () => {
        order.push('client');
        resolve();
      };
    });
    expect(
      interceptClosed(clientSide, () => order.push('ours')),
      `SDK seam "${Seams.closed}": no close handler after connect`,
    ).toBe(true);
    await serverSide.close();
    await closed;
    expect(order, `SDK seam "${Seams.closed}": the Client's teardown no longer goes through transport.onclose`).toEqual(['ours', 'client']);
  });
});
