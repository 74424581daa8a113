// Test support for the gateway: a real Host (real SessionManager, transports, catalog, call service) with fixture
// servers behind it, the gateway turned on, and real MCP clients in front of it: the SDK v2 client (both protocol
// eras) and the v1 `@modelcontextprotocol/sdk` client over HTTP, and either of them through switchboard-gateway on
// stdio. Everything a test starts is closed by `close()`.
import { Client, StreamableHTTPClientTransport, type ClientCapabilities } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readFileSync } from 'node:fs';
import type { PassThrough } from 'node:stream';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AdmissionLimits } from '../../../electron/core/gateway/connection-admission.js';
import type { ServerConfigInput } from '../../../shared/config.js';
import type { GatewayProfile } from '../../../shared/domains/gateway.js';
import { cleanup, tempDir } from '../../shared/support/harness.js';
import { addApproved, fixture, makeSessionHost, stdioServer, type SessionHarness } from '../sessions/helpers.js';

const here = dirname(fileURLToPath(import.meta.url));
/** The repository root. */
export const ROOT = join(here, '..', '..', '..');
/** The stdio entry point run from source. */
export const CLI = join(ROOT, 'electron', 'gateway-cli', 'main.ts');

export { fixture, stdioServer };

/** Waits until `check` (sync or async) holds, polling, or fails naming `what` after `ms`. */
export async function until(check: () => boolean | Promise<boolean>, ms = 10_000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Anything with a close(). */
interface Closable {
  close(): Promise<void>;
}

/** A host with its gateway on, and the clients a test opened. */
export class GatewayWorld {
  readonly dir = tempDir('sb-gateway-');
  readonly h: SessionHarness;
  readonly #open: Closable[] = [];
  url = '';

  /** `window: false` builds a host with no Switchboard window the person can see; `admission` shortens the front's limits. */
  constructor(opts: { window?: boolean; admission?: Partial<AdmissionLimits> } = {}) {
    this.h = makeSessionHost(this.dir, {
      window: opts.window ?? true,
      ...(opts.admission ? { ports: { gatewayAdmission: opts.admission } } : {}),
    });
  }

  get host(): SessionHarness['host'] {
    return this.h.host;
  }

  /** Adds a stdio fixture server (approved), connects it and waits until its tools are published. */
  async addServer(id: string, script: string, extra: Partial<ServerConfigInput> = {}, env: Record<string, string> = {}): Promise<void> {
    await addApproved(this.host, stdioServer(id, fixture(script), extra, env));
    await this.host.sessions.connect(id);
    await this.host.catalog.refresh(id);
  }

  /** Turns the gateway on. */
  async enable(): Promise<string> {
    const status = await this.host.gateway.enable(0);
    this.url = status.url!;
    return this.url;
  }

  /** Adds a client and returns its token. */
  async client(name: string, profile: GatewayProfile): Promise<{ id: string; token: string }> {
    const added = await this.host.gateway.addClient(name, profile);
    return { id: added.id, token: added.token };
  }

  /** An SDK v2 client over HTTP: `modern` negotiates 2026-07-28, `legacy` a 2025-11-25 session. */
  async http(
    token: string,
    era: 'modern' | 'legacy',
    capabilities: ClientCapabilities = {},
    setup?: (c: Client) => void,
    onToolsChanged?: () => void,
  ): Promise<Client> {
    const client = new Client(
      { name: 'gateway-test', version: '1.0.0' },
      {
        capabilities,
        versionNegotiation: { mode: era === 'legacy' ? 'legacy' : 'auto' },
        // On 2026-07-28 this also opens the subscriptions/listen stream the change arrives on.
        ...(onToolsChanged ? { listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: onToolsChanged } } } : {}),
      },
    );
    setup?.(client);
    await client.connect(
      new StreamableHTTPClientTransport(new URL(this.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
    );
    this.#open.push(client);
    return client;
  }

  /** A v1 `@modelcontextprotocol/sdk` client over HTTP (2025-era session). */
  async v1Http(token: string, capabilities: Record<string, unknown> = {}, setup?: (c: V1Client) => void): Promise<V1Client> {
    const client = new V1Client({ name: 'gateway-test-v1', version: '1.0.0' }, { capabilities });
    setup?.(client);
    await client.connect(new V1HttpTransport(new URL(this.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    this.#open.push(client);
    return client;
  }

  /** Arguments that start switchboard-gateway for a client name against this host's data folder. */
  cliArgs(name: string): string[] {
    return ['--import', 'tsx', CLI, '--client', name, '--data-dir', this.dir];
  }

  /** An SDK v2 client through switchboard-gateway on stdio; `stderr()` is what the entry point printed. */
  async stdio(
    name: string,
    era: 'modern' | 'legacy',
    capabilities: ClientCapabilities = {},
    setup?: (c: Client) => void,
  ): Promise<{ client: Client; stderr: () => string; pid: () => number | null }> {
    const client = new Client(
      { name: 'gateway-test-stdio', version: '1.0.0' },
      { capabilities, versionNegotiation: { mode: era === 'legacy' ? 'legacy' : 'auto' } },
    );
    setup?.(client);
    const transport = new StdioClientTransport({ command: process.execPath, args: this.cliArgs(name), cwd: ROOT, stderr: 'pipe' });
    let err = '';
    (transport.stderr as PassThrough | null)?.on('data', (d: Buffer) => (err += d.toString()));
    await client.connect(transport, { timeout: 60_000 });
    if (era === 'modern') await client.listTools(undefined, { timeout: 60_000 });
    this.#open.push(client);
    return { client, stderr: () => err, pid: () => transport.pid };
  }

  /** A v1 client through switchboard-gateway on stdio. */
  async v1Stdio(name: string, capabilities: Record<string, unknown> = {}, setup?: (c: V1Client) => void): Promise<V1Client> {
    const client = new V1Client({ name: 'gateway-test-v1-stdio', version: '1.0.0' }, { capabilities });
    setup?.(client);
    await client.connect(new V1StdioTransport({ command: process.execPath, args: this.cliArgs(name), cwd: ROOT, stderr: 'pipe' }));
    this.#open.push(client);
    return client;
  }

  /** Closes every client, shuts the host down (servers and gateway) and removes the data folder. */
  async close(): Promise<void> {
    for (const c of this.#open.splice(0)) await c.close().catch(() => undefined);
    await this.host.shutdown();
    cleanup(this.dir);
  }
}

/** Text of the first text block of a tool result. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.find((c) => c.type === 'text')?.text ?? '';
}

/** Whether a process exists (zombies, state Z, count as gone: PID 1 here does not reap). */
export function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/\) Z /.test(stat);
  } catch {
    return true;
  }
}
