// Test helpers: a real SDK v2 client connected over stdio to a fixture server.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { ServerConfigSchema, type ServerConfig } from '../../../shared/config.js';

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
export async function connectFixture(name: string, era: 'legacy' | 'modern', env: Record<string, string> = {}): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', fixture(name)],
    cwd: root,
    env,
    stderr: 'pipe',
  });
  let err = '';
  (transport.stderr as PassThrough | null)?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client(
    { name: 'switchboard-test', version: '0.0.0' },
    { capabilities: {}, versionNegotiation: era === 'legacy' ? { mode: 'legacy' } : { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(transport, { timeout: 20_000 });
  if (era === 'modern') await client.listTools(); // the real child starts after connect: wait for it
  return { client, stderr: () => err, close: () => client.close() };
}

/** A stored server config for tests. */
export function serverConfig(id: string, over: Partial<Omit<ServerConfig, 'timeouts'>> & { timeouts?: Partial<ServerConfig['timeouts']> } = {}): ServerConfig {
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
