// Test support for the session manager: a real Host with the real SessionManager, real transports and the
// fixture servers. HTTP and SSE use our guarded transports too.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach } from 'vitest';
import type { ServerConfigInput } from '../../../shared/config.js';
import type { EventMap, ServerStatus } from '../../../shared/contract.js';
import type { UrlOpener } from '../../../electron/core/elicitation/url-opener.js';
import type { CorePorts } from '../../../electron/core/compose.js';
import type { Host } from '../../../electron/core/host.js';
import { SessionManager } from '../../../electron/core/sessions/session-manager.js';
import { cleanup, tempDir, testCore } from '../../shared/support/harness.js';
import { createTransport } from '../../../electron/core/transports/create-transport.js';
import type { TransportFactory } from '../../../electron/core/transports/transport-factory.js';
import { MemoryCredentialStore } from '../../../electron/platform/memory-credential-store.js';
import { confSettingsStore } from '../../shared/support/harness.js';

const here = dirname(fileURLToPath(import.meta.url));
/** Absolute path of a shared fixture server. */
export const fixture = (name: string): string => join(here, '..', '..', 'fixtures', 'servers', name);
/** Absolute path of a fixture local to these tests. */
export const localFixture = (name: string): string => join(here, 'fixtures', name);

/** The real transport factory (stdio, Streamable HTTP and legacy SSE). */
export const testTransportFactory: TransportFactory = createTransport;

/** The checkout: fixtures run from here so `--import tsx` resolves (a server without a cwd runs in its own folder). */
export const REPO_ROOT = join(here, '..', '..', '..');

/** A stdio server definition running a fixture with this Node and tsx, from the checkout. */
export function stdioServer(
  id: string,
  script: string,
  extra: Partial<ServerConfigInput> = {},
  env: Record<string, string> = {},
): ServerConfigInput {
  return {
    id,
    name: id,
    transport: { type: 'stdio', command: process.execPath, args: ['--import', 'tsx', script], env, cwd: REPO_ROOT },
    startup: 'manual',
    ...extra,
  };
}

/** A stdio definition that counts its spawns in `spawnLog` and runs `target`. */
export function countedServer(
  id: string,
  target: string,
  spawnLog: string,
  extra: Partial<ServerConfigInput> = {},
  env: Record<string, string> = {},
): ServerConfigInput {
  return stdioServer(id, localFixture('counted.ts'), extra, { SPAWN_LOG: spawnLog, TARGET_FIXTURE: target, ...env });
}

/** Pids written to a spawn log. */
export function spawns(file: string): number[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map(Number);
}

/** True while a process exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A real Host driving a real SessionManager. */
export interface SessionHarness {
  host: Host;
  sessions: SessionManager;
  events: { event: keyof EventMap; payload: EventMap[keyof EventMap] }[];
  statuses(id: string): ServerStatus[];
}

/** Builds the Host the way bootstrap does, with the session manager under test. */
export function makeSessionHost(
  dir: string,
  opts: { cacheFile?: string; factory?: TransportFactory; urlOpener?: UrlOpener; window?: boolean; ports?: Partial<CorePorts> } = {},
): SessionHarness {
  let sessions: SessionManager | undefined;
  const credentials = new MemoryCredentialStore();
  const host = testCore({
    ...opts.ports,
    settingsStore: confSettingsStore(dir),
    credentials,
    ...(opts.urlOpener ? { urlOpener: opts.urlOpener } : {}),
    createSessions: (h) => {
      sessions = new SessionManager(h, {
        credentials,
        createTransport: opts.factory ?? testTransportFactory,
        ...(opts.cacheFile !== undefined ? { discoveryCacheFile: opts.cacheFile } : {}),
      });
      return sessions;
    },
  });
  const events: SessionHarness['events'] = [];
  host.events.subscribe((event, payload) => events.push({ event, payload }));
  // The test stands in for a person with a window open (asks, elicitations and sampling reach it).
  if (opts.window !== false) host.presence.set('test-window', 'visible');
  if (!sessions) throw new Error('sessions not created');
  return {
    host,
    sessions,
    events,
    statuses: (id) =>
      events
        .filter((e) => e.event === 'servers.status' && (e.payload as EventMap['servers.status']).id === id)
        .map((e) => (e.payload as EventMap['servers.status']).status),
  };
}

/** Adds a server and approves its launch (stdio), as the user would. */
export async function addApproved(host: Host, input: ServerConfigInput): Promise<void> {
  const detail = await host.add(input);
  if (detail.approval) await host.approve(input.id, detail.approval.fingerprint);
}

/** Starts an HTTP fixture and waits for the URL it announces. */
export async function startHttpFixture(
  script: string,
  args: string[] = [],
): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const rl = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('fixture did not announce a URL')), 20_000);
    rl.once('line', (line) => {
      clearTimeout(timer);
      resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`fixture exited with ${String(code)}`)));
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGTERM');
    await exited;
  };
  return { url, child, stop };
}

/** Waits until `check` is true or fails after `ms`. */
export async function until(check: () => boolean, ms = 10_000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A fresh settings folder and session host for every test of the file, shut down and removed after each. */
export function useSessionHost(opts: { urlOpener?: UrlOpener } = {}): { readonly h: SessionHarness; readonly dir: string } {
  const ctx: { h?: SessionHarness; dir?: string } = {};
  beforeEach(() => {
    ctx.dir = tempDir('sb-sessions-');
    ctx.h = makeSessionHost(ctx.dir, opts);
  });
  afterEach(async () => {
    await ctx.h?.host.shutdown();
    if (ctx.dir !== undefined) cleanup(ctx.dir);
  });
  return {
    get h(): SessionHarness {
      if (ctx.h === undefined) throw new Error('useSessionHost: only inside a test');
      return ctx.h;
    },
    get dir(): string {
      if (ctx.dir === undefined) throw new Error('useSessionHost: only inside a test');
      return ctx.dir;
    },
  };
}
