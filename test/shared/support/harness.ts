// Shared test harness: a real Host over the real settings store in a temp dir.
// Only the session controller is inert (these tests never connect servers).
import type { GatewayLauncher } from '../../../electron/core/gateway/setup-help.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerConfigInput } from '../../../shared/config.js';
import type { LogEntry, ServerIdentity, ServerStatus } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { createDispatcher, type Dispatch } from '../../../electron/core/dispatcher.js';
import { createHandlers, type Handlers } from '../../../electron/core/handlers.js';
import { createCore, type CorePorts } from '../../../electron/core/compose.js';
import type { Host } from '../../../electron/core/host.js';
import { createLogger } from '../../../electron/core/logging/logger.js';
import { createTransport } from '../../../electron/core/transports/create-transport.js';
import { createPrintingOpener } from '../../../electron/platform/browser-opener.js';
import { listenForRedirect } from '../../../electron/platform/redirect-listener.js';
import type { SettingsStore } from '../../../electron/core/ports.js';
import type { SessionController, StartupReport } from '../../../electron/core/sessions/session-controller.js';
import { MemoryCredentialStore } from '../../../electron/platform/memory-credential-store.js';
import { createSettingsStore } from '../../../electron/platform/settings-store.js';

/** A session controller that never connects: the tests here exercise definitions, not sessions. */
export class InertSessions implements SessionController {
  readonly #since = Date.now();
  register(): void {}
  update(): void {}
  async remove(): Promise<void> {}
  status(): ServerStatus {
    return { state: 'disconnected', since: this.#since, failures: 0 };
  }
  identity(): ServerIdentity | undefined {
    return undefined;
  }
  async connect(id: string): Promise<ServerStatus> {
    throw new AppError('connect_failed', 'not in tests', { serverId: id });
  }
  async disconnect(): Promise<ServerStatus> {
    return this.status();
  }
  async restart(id: string): Promise<ServerStatus> {
    return this.connect(id);
  }
  async client(id: string): Promise<never> {
    throw new AppError('connect_failed', 'These tests never connect', { serverId: id });
  }
  clearResponseCache(): void {}
  logs(): LogEntry[] {
    return [];
  }
  async startAll(): Promise<StartupReport> {
    return { requiredFailures: [] };
  }
  async shutdown(): Promise<void> {}
}

/** A fresh temp dir; remove it with `cleanup`. */
export function tempDir(prefix = 'switchboard-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Removes a temp dir. */
export function cleanup(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** The real settings store of the data folder `dir`. */
export function settingsStoreIn(dir: string, now?: () => Date): SettingsStore {
  return createSettingsStore(dir, now ? { now } : {});
}

/** Another name of settingsStoreIn (the store writes through conf). */
export const confSettingsStore = settingsStoreIn;

/** The core as bootstrap builds it, with test defaults for the ports not given (no log file, the real transports). */
export function testCore(ports: Partial<CorePorts> & Pick<CorePorts, 'settingsStore' | 'credentials'>): Host {
  return createCore({
    mode: 'headless',
    version: '0.0.0-test',
    logger: createLogger(),
    transports: createTransport,
    auth: { opener: createPrintingOpener(), listen: listenForRedirect },
    ...ports,
  });
}

/** A real Host plus its real handlers and dispatcher. */
export interface HostHarness {
  dir: string;
  store: SettingsStore;
  credentials: MemoryCredentialStore;
  host: Host;
  handlers: Handlers;
  dispatch: Dispatch;
}

/** Builds a Host the way bootstrap does, with memory credentials and an inert session controller. */
export function makeHost(
  dir: string,
  opts: {
    credentials?: MemoryCredentialStore;
    demoServer?: () => ServerConfigInput;
    gatewayLauncher?: () => GatewayLauncher;
    /** Further ports (a URL opener, registry options, the doctor's resolver). */
    ports?: Partial<CorePorts>;
  } = {},
): HostHarness {
  const store = settingsStoreIn(dir);
  const credentials = opts.credentials ?? new MemoryCredentialStore();
  const host = testCore({
    settingsStore: store,
    credentials,
    createSessions: () => new InertSessions(),
    ...(opts.demoServer ? { demoServer: opts.demoServer } : {}),
    ...(opts.gatewayLauncher ? { gatewayLauncher: opts.gatewayLauncher } : {}),
    ...opts.ports,
  });
  const handlers = createHandlers(host);
  return { dir, store, credentials, host, handlers, dispatch: createDispatcher(handlers) };
}

/** Calls the dispatcher and returns the value, failing the test with the error data otherwise. */
export async function call<T = unknown>(dispatch: Dispatch, method: string, args: unknown): Promise<T> {
  const env = await dispatch(method, args);
  if (!env.ok) throw new Error(`${method} failed: ${JSON.stringify(env.error)}`);
  return env.value as T;
}
