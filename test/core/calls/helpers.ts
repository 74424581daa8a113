// Test helpers: a real SDK v2 client connected over stdio to a fixture server.
import { Client, type ClientCapabilities, type Tool } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { CallService, type CallServiceDeps } from '../../../electron/core/calls/call-service.js';
import type { CatalogPort, ToolRoute } from '../../../electron/core/catalog/catalog-port.js';
import { ServerConfigSchema, type ServerConfig } from '../../../shared/config.js';
import type { EventKey, EventMap } from '../../../shared/contract.js';
import type { CallProgress } from '../../../shared/domains/calls.js';
import { AppError } from '../../../shared/errors.js';
import { TSX_LOADER } from '../../shared/support/tsx-loader.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** Absolute path of a fixture server. */
export function fixture(name: string): string {
  return `${root}test/fixtures/servers/${name}`;
}

/** A connected client with the fixture's stderr collected. */
export interface Connected {
  client: Client;
  stderr: () => string;
  close: () => Promise<void>;
}

/** Connects a client to a fixture: `legacy` (initialize) or `modern` (2026-07-28). */
export async function connectFixture(
  name: string,
  era: 'legacy' | 'modern',
  env: Record<string, string> = {},
  capabilities: ClientCapabilities = {},
): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', TSX_LOADER, fixture(name)],
    cwd: root,
    env,
    stderr: 'pipe',
  });
  let err = '';
  (transport.stderr as PassThrough | null)?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client(
    { name: 'switchboard-test', version: '0.0.0' },
    { capabilities, versionNegotiation: era === 'legacy' ? { mode: 'legacy' } : { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(transport, { timeout: 20_000 });
  if (era === 'modern') await client.listTools(); // the real child starts after connect: wait for it
  return { client, stderr: () => err, close: () => client.close() };
}

/** A stored server config for tests. */
export function serverConfig(
  id: string,
  over: Partial<Omit<ServerConfig, 'timeouts'>> & { timeouts?: Partial<ServerConfig['timeouts']> } = {},
): ServerConfig {
  const { timeouts, ...rest } = over;
  return ServerConfigSchema.parse({
    id,
    name: id,
    transport: { type: 'stdio', command: 'node' },
    ...rest,
    ...(timeouts ? { timeouts } : {}),
  });
}

/** Waits until `pred` holds or fails after `ms`. */
export async function until(pred: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A catalog stand-in built from a live tools/list (the real catalog is built by the catalog work). */
export class StaticCatalog implements CatalogPort {
  readonly routes = new Map<string, ToolRoute>();
  revision = 1;
  calls = 0;

  static async from(serverId: string, client: Client): Promise<StaticCatalog> {
    const cat = new StaticCatalog();
    const { tools } = await client.listTools();
    for (const tool of tools) cat.add(serverId, tool);
    return cat;
  }

  add(serverId: string, tool: Tool): void {
    const localName = `mcp__${serverId}__${tool.name}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
    this.routes.set(localName, {
      localName,
      serverId,
      originalName: tool.name,
      revision: this.revision,
      tool,
      appOnly: false,
      pin: 'approved',
      fingerprint: JSON.stringify(tool),
    });
  }

  async route(localName: string): Promise<ToolRoute> {
    const r = this.routes.get(localName);
    if (!r) throw new AppError('not_found', `No tool ${localName}`);
    return r;
  }

  validate(route: ToolRoute): void {
    const current = this.routes.get(route.localName);
    if (!current || current.revision !== route.revision) {
      throw new AppError(
        'not_found',
        `The tool ${route.localName} changed since it was shown (catalog revision ${route.revision}); reload it before calling`,
        {
          serverId: route.serverId,
        },
      );
    }
  }

  whenPublishable(): Promise<void> {
    return Promise.resolve();
  }

  beginCall(): () => void {
    this.calls += 1;
    return () => {
      this.calls -= 1;
    };
  }
}

/** Collected events. */
export class Events {
  readonly list: { event: EventKey; payload: unknown }[] = [];
  emit<E extends EventKey>(event: E, payload: EventMap[E]): void {
    this.list.push({ event, payload });
  }
  progress(callId: string): CallProgress[] {
    return this.list
      .filter((e) => e.event === 'call.progress' && (e.payload as CallProgress).callId === callId)
      .map((e) => e.payload as CallProgress);
  }
}

/** A call service over one connected fixture. */
export function serviceFor(
  configs: ServerConfig[],
  clients: Record<string, Client>,
  catalog: CatalogPort | undefined,
  historyFile?: string,
  more: Pick<CallServiceDeps, 'elicit'> = {},
): { service: CallService; events: Events } {
  const events = new Events();
  const service = new CallService({
    events,
    config: (id) => {
      const c = configs.find((x) => x.id === id);
      if (!c) throw new AppError('not_found', `No server ${id}`);
      return c;
    },
    client: async (id) => {
      const c = clients[id];
      if (!c) throw new AppError('connect_failed', `No client for ${id}`);
      return c;
    },
    catalog: () => catalog,
    historyFile: () => historyFile,
    ...more,
  });
  return { service, events };
}
