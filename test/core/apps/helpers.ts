// Test support for MCP Apps: a real Host with real sessions, the apps fixture or a published app server over stdio
// (launched through the spawn-counting wrapper so a test can check the child is gone), and the contract dispatcher.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ServerConfigInput } from '../../../shared/config.js';
import type { InvokeArgs, InvokeKey, InvokeResult } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { createDispatcher, type Dispatch } from '../../../electron/core/dispatcher.js';
import { createHandlers } from '../../../electron/core/handlers.js';
import { addApproved, alive, fixture, localFixture, makeSessionHost, spawns, type SessionHarness } from '../sessions/helpers.js';
import { cleanup, tempDir } from '../../shared/support/harness.js';
import { TSX_LOADER } from '../../shared/support/tsx-loader.js';

/** Where the test sandbox "serves" proxy pages (nothing listens: these tests never render). */
export const TEST_SANDBOX = 'http://127.0.0.1:9/proxy.html';

/** Where the test sandbox "serves" its warm-up page. */
export const TEST_WARM = 'http://127.0.0.1:9/warm.html';

/** Absolute path of a published package's file. */
export const published = (path: string): string => createRequire(import.meta.url).resolve(path);

/** A stdio definition running `target` (a script, or a published server's entry with `--stdio`) through the counting wrapper. */
export function countedStdio(
  id: string,
  target: string,
  spawnLog: string,
  extra: Partial<ServerConfigInput> = {},
  args: string[] = [],
): ServerConfigInput {
  return {
    id,
    name: id,
    transport: {
      type: 'stdio',
      command: process.execPath,
      args: ['--import', TSX_LOADER, localFixture('counted.ts'), ...args],
      env: { SPAWN_LOG: spawnLog, TARGET_FIXTURE: target },
    },
    startup: 'manual',
    ...extra,
  };
}

/** The apps fixture. */
export const APPS_FIXTURE = fixture('apps-fixture.ts');

/** A host with one server, its dispatcher and a way to end it all and check its children are gone. */
export interface AppsHarness {
  h: SessionHarness;
  dir: string;
  dispatch: Dispatch;
  /** Calls a contract method; throws the AppError it failed with. */
  call<K extends InvokeKey>(method: K, args: InvokeArgs<K>): Promise<InvokeResult<K>>;
  /** The HTML the sandbox serves for an open launch (it never goes to the renderer). */
  html(launch: { launchId: string }): string;
  /** Shuts the host down, removes the folder and asserts every spawned server process is gone. */
  close(): Promise<void>;
}

/** Starts a host, adds `server` (built with the spawn log path) approved, and serves the sandbox at TEST_SANDBOX. */
export async function appsHarness(server: (spawnLog: string) => ServerConfigInput): Promise<AppsHarness> {
  const dir = tempDir('sb-apps-');
  const h = makeSessionHost(dir);
  h.host.apps.setSandbox({ pageUrl: (id) => `${TEST_SANDBOX}?launch=${id}`, warmUrl: TEST_WARM });
  const log = join(dir, 'spawns.log');
  await addApproved(h.host, server(log));
  const dispatch = createDispatcher(createHandlers(h.host));
  const call = async <K extends InvokeKey>(method: K, args: InvokeArgs<K>): Promise<InvokeResult<K>> => {
    const env = await dispatch(method, args);
    if (!env.ok) throw AppError.fromData(env.error);
    return env.value as InvokeResult<K>;
  };
  return {
    h,
    dir,
    dispatch,
    call,
    html: (launch) => {
      const input = h.host.apps.sandboxInput(launch.launchId);
      if (!input) throw new Error(`launch ${launch.launchId} is not open`);
      return input.html;
    },
    close: async () => {
      await h.host.shutdown();
      const pids = spawns(log);
      cleanup(dir);
      for (const pid of pids) if (alive(pid)) throw new Error(`server process ${pid} is still running`);
    },
  };
}

/** Runs `fn` and returns the AppError it throws. */
export async function appError(fn: () => Promise<unknown>): Promise<AppError> {
  try {
    await fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected an AppError');
}
