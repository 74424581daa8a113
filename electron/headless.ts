// Headless mode: the same core and renderer, served to a browser over a loopback,
// token-protected WebSocket bridge. Usage: headless [--port N] [--data-dir DIR] [--json]
import Conf from 'conf';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { bootstrap } from './bootstrap.js';
import { demoServerConfig } from './demo/demo-config.js';
import { escapeForTerminal } from './core/text.js';
import { startBridgeServer } from './headless/bridge-server.js';
import { defaultDataDir } from './paths.js';
import { createSettingsStore, type ConfLike } from './platform/settings-store.js';

declare const __APP_VERSION__: string;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      'data-dir': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0–65535, got ${values.port}`);
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir());
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });

  const here = dirname(fileURLToPath(import.meta.url));
  const { host, dispatch } = await bootstrap({
    mode: 'headless',
    version: typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : '0.0.0',
    settingsStore: createSettingsStore(dataDir, (opts) => new Conf<Record<string, unknown>>(opts) as unknown as ConfLike),
    credentials: process.env['SWITCHBOARD_CREDENTIALS'] === 'memory' ? 'memory' : 'auto',
    demoServer: () => demoServerConfig(process.execPath, join(here, '..', 'demo', 'demo-server.mjs'), {}),
  });
  const token = randomBytes(32).toString('base64url');
  const server = await startBridgeServer({ dispatch, events: host.events, staticDir: join(here, '..', 'renderer'), token, port });
  const url = `${server.origin}/#token=${token}`;
  if (values.json) process.stdout.write(`${JSON.stringify({ url, port: server.port, token })}\n`);
  else process.stdout.write(`Switchboard is running at ${url}\n`);
  for (const notice of host.info().notices) process.stderr.write(`[${notice.level}] ${escapeForTerminal(notice.message)}\n`);
  void host.start();

  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await server.close();
    await host.shutdown();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((err: unknown) => {
  process.stderr.write(`Switchboard headless failed to start: ${escapeForTerminal(err instanceof Error ? err.message : String(err))}\n`);
  process.exit(1);
});
