// Drives a Catalog with real SDK clients over the SDK's StdioClientTransport, feeding it through the same session
// events hub the session manager uses (connected / closed / toolsListChanged / removed).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ServerConfigSchema, type ServerConfig, type ServerConfigInput } from '../../../shared/config.js';
import type { EventMap } from '../../../shared/contract.js';
import { Catalog, type CatalogDeps } from '../../../electron/core/catalog/catalog.js';
import { MemoryPinStore, type PinStore } from '../../../electron/core/catalog/pins.js';
import { EventBus } from '../../../electron/core/event-bus.js';
import { SessionEvents } from '../../../electron/core/sessions/session-events.js';
import { TSX_LOADER } from '../../shared/support/tsx-loader.js';

const here = dirname(fileURLToPath(import.meta.url));
/** Absolute path of the catalog fixture server. */
export const CATALOG_FIXTURE = join(here, '..', '..', 'fixtures', 'servers', 'catalog-hostile.ts');

/** How a fixture server is started. */
export interface FixtureSpec {
  env?: Record<string, string>;
  mode?: 'legacy' | 'auto';
  config?: Partial<ServerConfigInput>;
}

/** A catalog plus the fixture servers behind it. */
export class CatalogHarness {
  readonly events = new EventBus();
  readonly sessionEvents = new SessionEvents();
  readonly configs: ServerConfig[] = [];
  readonly clients = new Map<string, Client>();
  readonly specs = new Map<string, FixtureSpec>();
  readonly changes: EventMap['catalog.changed'][] = [];
  readonly catalog: Catalog;

  constructor(opts: { pins?: PinStore; deps?: Partial<CatalogDeps> } = {}) {
    this.events.subscribe((event, payload) => {
      if (event === 'catalog.changed') this.changes.push(payload as EventMap['catalog.changed']);
    });
    this.catalog = new Catalog({
      events: this.events,
      sessionEvents: this.sessionEvents,
      configs: () => this.configs,
      connect: (id) => this.connect(id),
      pins: opts.pins ?? new MemoryPinStore(),
      autoRefreshDelayMs: 20,
      connectBatchMs: 20,
      ...opts.deps,
    });
  }

  /** Registers a server definition (not connected yet). */
  add(id: string, spec: FixtureSpec = {}): ServerConfig {
    const config = ServerConfigSchema.parse({
      id,
      name: id,
      transport: { type: 'stdio', command: process.execPath, args: ['--import', TSX_LOADER, CATALOG_FIXTURE], env: spec.env ?? {} },
      startup: 'manual',
      ...spec.config,
    });
    this.configs.push(config);
    this.specs.set(id, spec);
    this.events.emit('servers.changed', { servers: [] });
    return config;
  }

  /** Servers whose connect has started (a test waits for it instead of sleeping). */
  readonly connectsStarted = new Set<string>();

  /** Connects a server the way the session manager does and announces it. */
  async connect(id: string): Promise<Client> {
    const existing = this.clients.get(id);
    if (existing) return existing;
    this.connectsStarted.add(id);
    const spec = this.specs.get(id) ?? {};
    const client = new Client(
      { name: 'catalog-test', version: '1.0.0' },
      {
        versionNegotiation: { mode: spec.mode ?? 'legacy', probe: { timeoutMs: 10_000 } },
        listChanged: {
          tools: { autoRefresh: false, debounceMs: 0, onChanged: () => this.sessionEvents.emit({ type: 'toolsListChanged', id }) },
        },
      },
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', TSX_LOADER, CATALOG_FIXTURE],
      env: spec.env ?? {},
      stderr: 'pipe',
    });
    await client.connect(transport, { timeout: 20_000 });
    client.onclose = () => {
      if (this.clients.get(id) === client) this.clients.delete(id);
      this.sessionEvents.emit({ type: 'closed', id });
    };
    this.clients.set(id, client);
    this.sessionEvents.emit({ type: 'connected', id, client, protocolVersion: client.getNegotiatedProtocolVersion() ?? '' });
    return client;
  }

  /** Sends a control action to a fixture. */
  async control(id: string, args: Record<string, unknown>): Promise<string> {
    const client = await this.connect(id);
    const result = await client.callTool({ name: 'catalog_control', arguments: args });
    const first = result.content[0];
    return first && first.type === 'text' ? first.text : '';
  }

  /** Removes a server. */
  async remove(id: string): Promise<void> {
    const i = this.configs.findIndex((c) => c.id === id);
    if (i >= 0) this.configs.splice(i, 1);
    this.sessionEvents.emit({ type: 'removed', id });
    const client = this.clients.get(id);
    this.clients.delete(id);
    await client?.close();
  }

  /** Local names of a server, sorted. */
  names(id: string): string[] {
    return this.catalog
      .search({ query: '', serverIds: [id], limit: 25_000 })
      .tools.map((t) => t.name)
      .sort();
  }

  /** Waits until `check` holds (polling). */
  async until(check: () => boolean, timeoutMs = 15_000, what = 'condition'): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async close(): Promise<void> {
    await this.catalog.dispose();
    await Promise.all([...this.clients.values()].map((c) => c.close().catch(() => undefined)));
    this.clients.clear();
  }
}
