// Headless mode: the same core and renderer, served to a browser over a loopback, token-protected WebSocket bridge.
// Usage: headless [--port N] [--data-dir DIR] [--json]
// Exits non-zero with the reason when it cannot start (another Switchboard holds the data folder, a bad option, a
// port in use); Ctrl-C or SIGTERM runs the core's bounded shutdown (servers ended, pending writes flushed) first.
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { AppError } from '../shared/errors.js';
import { bootstrap } from './bootstrap.js';
import { createLogger, logFileIn, type Logger } from './core/logging/logger.js';
import { acquireDataLock, type DataLock } from './core/storage/data-lock.js';
import { escapeControl } from './core/text.js';
import { demoServerConfig } from './demo/demo-config.js';
import { startAppSandboxServer } from './headless/app-sandbox-server.js';
import { startBridgeServer } from './headless/bridge-server.js';
import { rendererCsp } from './renderer-csp.js';
import { defaultDataDir } from './core/storage/default-data-dir.js';
import { createSettingsStore } from './platform/settings-store.js';
import type { LocalPackages } from './core/registry/install-options.js';

declare const __APP_VERSION__: string;

const say = (line: string): void => void process.stderr.write(`${escapeControl(line)}\n`);

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      'data-dir': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new AppError('invalid_request', `--port must be 0–65535, got ${values.port}`);
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir());
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });

  let lock: DataLock;
  try {
    lock = acquireDataLock(dataDir, { mode: 'headless' });
  } catch (err) {
    say(`Switchboard headless cannot start: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
  let logger: Logger | undefined;
  try {
    logger = createLogger({ dataDir, echo: (line) => void process.stderr.write(`${line}\n`) });
    return await serve(dataDir, port, values.json, lock, logger);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    logger?.error('app', `start failed: ${err instanceof Error ? (err.stack ?? message) : message}`);
    await logger?.close();
    lock.release();
    say(`Switchboard headless failed to start: ${message} (log: ${logFileIn(dataDir)})`);
    return 1;
  }
}

async function serve(dataDir: string, port: number, json: boolean, lock: DataLock, logger: Logger): Promise<number> {
  const here = dirname(fileURLToPath(import.meta.url));
  const { host, dispatch } = await bootstrap({
    mode: 'headless',
    version: typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : '0.0.0',
    settingsStore: createSettingsStore(dataDir),
    credentials: process.env['SWITCHBOARD_CREDENTIALS'] === 'memory' ? 'memory' : 'auto',
    demoServer: () => demoServerConfig(),
    logger,
    dataLock: lock,
    ...testLocalPackages(),
    gatewayLauncher: () => ({ command: process.execPath, args: [join(here, '..', 'bin', 'switchboard-gateway.mjs')] }),
  });
  const token = randomBytes(32).toString('base64url');
  // MCP Apps run on a second loopback port (a distinct origin): the renderer may frame exactly that origin, and the
  // sandbox page may be framed only by the renderer.
  let rendererOrigins: string[] = [];
  const sandbox = await startAppSandboxServer({ rendererOrigins: () => rendererOrigins, launch: (id) => host.apps.sandboxInput(id) });
  const server = await startBridgeServer({
    dispatch,
    events: host.events,
    presence: host.presence,
    staticDir: join(here, '..', 'renderer'),
    token,
    port,
    // Both loopback names: the renderer frames the sandbox under the other name than its own (a separate site).
    csp: (nonce) => rendererCsp(nonce, { frameSrc: [sandbox.origin, `http://localhost:${sandbox.port}`] }),
  });
  rendererOrigins = [`http://127.0.0.1:${server.port}`, `http://localhost:${server.port}`];
  host.apps.setSandbox({
    pageUrl: (id) => sandbox.pageUrl(id),
    warmUrl: sandbox.warmUrl,
    reservedPorts: () => [server.port, sandbox.port],
  });
  host.onShutdown({ name: 'close the browser bridge', stage: 'stop', run: () => server.close() });
  host.onShutdown({ name: 'close the MCP Apps sandbox', stage: 'stop', run: () => sandbox.close() });
  const url = `${server.origin}/#token=${token}`;
  if (json) process.stdout.write(`${JSON.stringify({ url, port: server.port, token })}\n`);
  else process.stdout.write(`Switchboard is running at ${url}\n`);
  // Warnings and errors reach stderr through the log; quieter notices are printed here once.
  for (const notice of host.info().notices) if (notice.level === 'info') say(`[info] ${notice.message}`);
  void host.start();

  // The gateway's endpoint file must not outlive the process, whatever ends it.
  process.on('exit', () => host.gateway.exitSync());
  return new Promise<number>((done) => {
    let stopping = false;
    let firstSignalAt = 0;
    const stop = (signal: string): void => {
      if (stopping) {
        // Ctrl-C reaches us twice at once through npm and scripts/headless.mjs: only a deliberate second one counts.
        if (firstSignalAt === 0 || Date.now() - firstSignalAt < 1000) return;
        say('Switchboard: stopping now without waiting.');
        lock.release();
        process.exit(130);
      }
      stopping = true;
      firstSignalAt = Date.now();
      logger.info('app', `${signal}: shutting down`);
      void host.shutdown().then((report) => {
        const slow = report.steps.filter((s) => s.outcome !== 'ok').map((s) => `${s.name} ${s.outcome}`);
        if (slow.length > 0) say(`Switchboard stopped (${slow.join('; ')}).`);
        done(0);
      });
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('uncaughtException', (err) => {
      logger.error('app', `uncaught exception: ${err.stack ?? err.message}`);
      say(`Switchboard hit an unexpected error and is stopping: ${err.message} (log: ${logger.file ?? 'none'})`);
      if (!stopping) {
        stopping = true;
        void host.shutdown().then(() => done(1));
      }
    });
    process.on('unhandledRejection', (reason) => {
      // A failed background promise is a bug to fix, not a reason to drop every session: log it and carry on.
      logger.error('app', `unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`);
    });
  });
}

/** Test-only: SWITCHBOARD_TEST_LOCAL_PACKAGES maps registry npm identifiers to local programs (JSON), for e2e tests. */
function testLocalPackages(): { localPackages?: LocalPackages } {
  const raw = process.env['SWITCHBOARD_TEST_LOCAL_PACKAGES'];
  if (raw === undefined || raw === '') return {};
  const parsed: unknown = JSON.parse(raw);
  const map: LocalPackages = {};
  for (const [id, v] of Object.entries(typeof parsed === 'object' && parsed !== null ? parsed : {})) {
    const entry = v as { command?: unknown; args?: unknown };
    if (typeof entry.command !== 'string' || !Array.isArray(entry.args) || !entry.args.every((a) => typeof a === 'string')) continue;
    map[id] = { command: entry.command, args: entry.args as string[] };
  }
  say(`[warning] test-only local packages in use for: ${Object.keys(map).join(', ')}`);
  return { localPackages: map };
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    say(`Switchboard headless failed to start: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
