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
import type { AppInfo } from '../shared/contract.js';
import { SHUTDOWN_TIMEOUT_MS } from './core/lifecycle/core-lifetime.js';
import { createLogger, logFileIn, SHELL_LOG_FILE, type Logger } from './core/logging/logger.js';
import type { SandboxPlace } from './core-process/messages.js';
import { acquireDataLock, type DataLock } from './core/storage/data-lock.js';
import { tolerateClosedPipes } from './platform/closed-pipes.js';
import { escapeControl } from './core/text.js';
import { startAppSandboxServer } from './headless/app-sandbox-server.js';
import { startBridgeServer } from './headless/bridge-server.js';
import { listenOnKeptPort, readLastPort, writeLastPort } from './headless/last-port.js';
import { rendererCsp } from './renderer-csp.js';
import { defaultDataDir } from './core/storage/default-data-dir.js';
import { CoreSupervisor, type CoreProcess } from './shell/core-supervisor.js';
import { openControlDoor, type ControlDoor } from './shell/control-door.js';
import { cleanUpAfterCore } from './shell/dead-core-cleanup.js';
import { doorFollowsCore, GatewayDoor, withGatewayDoor } from './shell/gateway-door.js';
import { withMemorySecrets } from './shell/memory-secrets.js';
import { SignInRedirects, signInsFollowCore, withSignInRedirects } from './shell/sign-in-redirects.js';
import { startNodeCore } from './shell/node-core-process.js';
import type { LocalPackages } from './core/registry/install-options.js';

declare const __APP_VERSION__: string;

const say = (line: string): void => void process.stderr.write(`${escapeControl(line)}\n`);

async function main(): Promise<number> {
  // `headless --json | head -1` closes the pipe after the address: later output must not stop the shutdown.
  tolerateClosedPipes();
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  // Without --port, the last run's port when it is free (an open tab finds Switchboard again), else any free port.
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535))
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
    logger = createLogger({ dataDir, fileName: SHELL_LOG_FILE, echo: (line) => void process.stderr.write(`${line}\n`) });
    return await serve(dataDir, port, values.json, lock, logger);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    logger?.error('app', `start failed: ${err instanceof Error ? (err.stack ?? message) : message}`);
    await logger?.close();
    lock.release();
    say(`Switchboard headless failed to start: ${message} (log: ${logFileIn(dataDir, SHELL_LOG_FILE)})`);
    return 1;
  }
}

async function serve(dataDir: string, port: number | undefined, json: boolean, lock: DataLock, logger: Logger): Promise<number> {
  const here = dirname(fileURLToPath(import.meta.url));
  const token = randomBytes(32).toString('base64url');
  // The core runs in a process of its own (core-process/entry.ts); this process keeps the bridge, the static files,
  // the app sandbox and the data folder's lock, relays the contract and restarts the core if it dies.
  // Known once the sandbox and bridge listen (before the first core starts).
  let reserved: SandboxPlace | undefined = undefined;
  const local = testLocalPackages();
  // The gateway's port, held here so a restarting core leaves clients a clean error rather than a refused connection.
  const door: GatewayDoor = new GatewayDoor({
    gapReason: (): string =>
      core.status.state === 'failed' ? "Switchboard's core stopped and was not restarted" : "Switchboard's core is restarting",
  });
  // The OAuth redirect listeners, held here so a sign-in in progress outlives a core restart.
  const signIns = new SignInRedirects({ log: (level, message) => logger.log(level, 'auth', message) });
  const launchCore = (): CoreProcess =>
    startNodeCore({
      // Built: the core's bundle beside this one; from source (tests run the .ts): its entry through tsx.
      ...(import.meta.url.endsWith('.ts')
        ? { entry: join(here, 'core-process', 'entry.ts'), execArgv: ['--import', 'tsx'] }
        : { entry: join(here, 'core.mjs') }),
      onLine: (line) => {
        // The core's warnings, errors and printed sign-in addresses: to this terminal and to the shell's log.
        say(line);
        logger.info('core', line);
      },
    });
  // The first core process is started now, before the servers below listen: loading its code is most of the time
  // to a working page, and it needs nothing but its `init` (sent once the ports are known) to go on from there.
  let early: CoreProcess | undefined = launchCore();
  const core = new CoreSupervisor({
    launch: () => {
      const next = early ?? launchCore();
      early = undefined;
      return next;
    },
    init: () => ({
      mode: 'headless',
      version: typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : '0.0.0',
      dataDir,
      credentials: process.env['SWITCHBOARD_CREDENTIALS'] === 'memory' ? 'memory' : 'auto',
      ...local,
      gatewayLauncher: { command: process.execPath, args: [join(here, '..', 'bin', 'switchboard-gateway.mjs')] },
      ...(reserved ? { sandbox: reserved } : {}),
      echoLog: true,
    }),
    // Headless has no browser or safeStorage of its own: the core prints sign-in addresses itself.
    serve: withSignInRedirects(
      signIns,
      withGatewayDoor(
        door,
        withMemorySecrets((request) => Promise.reject(new Error(`headless mode cannot ${request.op}`))),
      ),
    ),
    log: (level, message) => logger.log(level, 'supervisor', message),
    logFile: logger.file,
    ...testRestartBackoff(),
    ...testKillLimit(),
  });
  core.subscribe(doorFollowsCore(door));
  core.subscribe(signInsFollowCore(signIns));
  // MCP Apps run on a second loopback port (a distinct origin): the renderer may frame exactly that origin, and the
  // sandbox page may be framed only by the renderer.
  let rendererOrigins: string[] = [];
  // A launcher that cannot listen ends the core it started rather than leaving it to notice its parent is gone.
  const abandon = (err: unknown): never => {
    early?.kill();
    throw err;
  };
  const sandbox = await startAppSandboxServer({ rendererOrigins: () => rendererOrigins, launch: (id) => core.sandboxInput(id) }).catch(
    abandon,
  );
  const server = await listenOnKeptPort(
    port,
    readLastPort(dataDir, say),
    (listenPort) =>
      startBridgeServer({
        dispatch: core.dispatch,
        events: core,
        presence: core.presence,
        staticDir: join(here, '..', 'renderer'),
        token,
        port: listenPort,
        // Both loopback names: the renderer frames the sandbox under the other name than its own (a separate site).
        csp: (nonce) => rendererCsp(nonce, { frameSrc: [sandbox.origin, `http://localhost:${sandbox.port}`] }),
      }),
    say,
  ).catch(abandon);
  await writeLastPort(dataDir, server.port).catch((err: unknown) =>
    logger.warn('app', `the port could not be recorded for the next run: ${err instanceof Error ? err.message : String(err)}`),
  );
  // The `switchboard` command on this folder uses this core through the control door (control.json) instead of
  // failing on the folder's lock; without the door (it could not open) it says the folder is in use, as before.
  const control: ControlDoor | undefined = await openControlDoor({
    dataDir,
    dispatch: core.dispatch,
    log: (level, message) => logger.log(level, 'app', message),
  }).catch((err: unknown) => {
    say(`[warning] the switchboard command cannot use this Switchboard: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  });
  rendererOrigins = [`http://127.0.0.1:${server.port}`, `http://localhost:${server.port}`];
  reserved = {
    pagePrefix: sandbox.pageUrl(''),
    warmUrl: sandbox.warmUrl,
    reservedPorts: [server.port, sandbox.port, ...(control ? [control.port] : [])],
  };
  const url = `${server.origin}/#token=${token}`;
  return new Promise<number>((done) => {
    let stopping = false;
    let firstSignalAt = 0;
    const finish = async (code: number): Promise<void> => {
      // First: a command that finds control.json from now on starts its own core once the folder is released.
      await control?.close();
      const report = await core.shutdown(SHUTDOWN_TIMEOUT_MS);
      if (report === undefined) {
        const ended = await cleanUpAfterCore(dataDir, (m) => logger.warn('supervisor', m));
        if (ended > 0) say(`Switchboard ended ${ended} server process group(s) the core left.`);
      } else {
        const slow = report.steps.filter((s) => s.outcome !== 'ok').map((s) => `${s.name} ${s.outcome}`);
        if (slow.length > 0) say(`Switchboard stopped (${slow.join('; ')}).`);
      }
      await Promise.allSettled([server.close(), sandbox.close(), door.close(), signIns.close()]);
      await logger.close();
      lock.release();
      done(code);
    };
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
      void finish(0);
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('uncaughtException', (err) => {
      logger.error('app', `uncaught exception: ${err.stack ?? err.message}`);
      say(`Switchboard hit an unexpected error and is stopping: ${err.message} (log: ${logger.file ?? 'none'})`);
      if (!stopping) {
        stopping = true;
        void finish(1);
      }
    });
    process.on('unhandledRejection', (reason) => {
      // A failed background promise is a bug to fix, not a reason to stop: log it and carry on.
      logger.error('app', `unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`);
    });

    // Printed only once the signal handlers are in place: a script that reads the address and sends SIGTERM at once
    // still gets the bounded shutdown, not the default kill.
    if (json) process.stdout.write(`${JSON.stringify({ url, port: server.port, token })}\n`);
    else process.stdout.write(`Switchboard is running at ${url}\n`);
    void core.start().then(async (ok) => {
      if (!ok) {
        say(`Switchboard's core could not start (${core.status.reason ?? 'unknown reason'}); see ${logger.file ?? 'the log'}.`);
        return;
      }
      // Warnings and errors reach stderr through the core's log; quieter notices are printed here once.
      const info = await core.dispatch('app.info', {});
      if (info.ok) for (const notice of (info.value as AppInfo).notices) if (notice.level === 'info') say(`[info] ${notice.message}`);
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

/**
 * Test-only: SWITCHBOARD_TEST_CORE_RESTART_BACKOFF_MS replaces the supervisor's waits between core restarts, as one
 * number or a comma-separated list of milliseconds (0–60000), so kill tests can run many rounds in the suite's time
 * (or hold the gap open long enough to look at it). Never set in normal use; a bad value is reported and ignored.
 */
function testRestartBackoff(): { backoffMs?: number[] } {
  const raw = process.env['SWITCHBOARD_TEST_CORE_RESTART_BACKOFF_MS'];
  if (raw === undefined || raw === '') return {};
  const waits = raw.split(',').map((part) => Number(part.trim()));
  if (!waits.every((ms) => Number.isInteger(ms) && ms >= 0 && ms <= 60_000)) {
    say(`[warning] SWITCHBOARD_TEST_CORE_RESTART_BACKOFF_MS must be milliseconds 0–60000, comma-separated; ignored`);
    return {};
  }
  say(`[warning] test-only core restart waits in use: ${waits.join(', ')} ms`);
  return { backoffMs: waits };
}

/**
 * Test-only: SWITCHBOARD_TEST_CORE_MAX_KILLS replaces how many kills from outside the supervisor restarts within its
 * window, so kill tests can run their many rounds (the shell's own limit stops an out-of-memory loop). Never set in
 * normal use; a bad value is reported and ignored.
 */
function testKillLimit(): { maxKills?: number } {
  const raw = process.env['SWITCHBOARD_TEST_CORE_MAX_KILLS'];
  if (raw === undefined || raw === '') return {};
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) {
    say(`[warning] SWITCHBOARD_TEST_CORE_MAX_KILLS must be a whole number 1–10000; ignored`);
    return {};
  }
  say(`[warning] test-only core kill limit in use: ${limit}`);
  return { maxKills: limit };
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    say(`Switchboard headless failed to start: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
