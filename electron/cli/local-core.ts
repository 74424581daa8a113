// The command's own core, for when no Switchboard runs on the data folder (or for a `--config` run): started in this
// process the way headless does (bootstrap, the data folder's lock), with the contract's dispatcher as its one door.
// Loaded only on this path (cli-core.ts imports it dynamically): the core, the SDK and OpenTelemetry are most of the
// command's start-up, which a command routed to the running app does without.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { InvokeResult } from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';
import { bootstrap } from '../bootstrap.js';
import type { Dispatch } from '../core/dispatcher.js';
import { createLogger } from '../core/logging/logger.js';
import { tracesUrl } from '../core/telemetry/otlp.js';
import { acquireDataLock, type DataLock } from '../core/storage/data-lock.js';
import { defaultDataDir } from '../core/storage/default-data-dir.js';
import { heldSignIns } from '../core/auth/held-sign-ins.js';
import { createPrintingOpener } from '../platform/browser-opener.js';
import { createSettingsStore } from '../platform/settings-store.js';
import { SignInRedirects } from '../shell/sign-in-redirects.js';
import { describeLaunch, stdinLines, type CliCore, type CoreSource } from './cli-core.js';
import { CliError } from './cli-error.js';
import { EXIT } from './exit-codes.js';
import type { Output } from './output.js';

declare const __APP_VERSION__: string;
const VERSION = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : '0.0.0';

/** Starts the core in this process on the data folder or config file, or throws a CliError saying why it cannot. */
export async function openLocalCore(source: CoreSource, out: Output): Promise<CliCore> {
  if (source.otlp !== undefined) {
    try {
      tracesUrl(source.otlp);
    } catch (err) {
      throw CliError.usage(`--otlp: ${(err as Error).message}`);
    }
  }
  const throwaway = source.config !== undefined;
  let configText: string | undefined;
  if (source.config !== undefined) {
    try {
      configText = readFileSync(source.config, 'utf8');
    } catch (err) {
      throw CliError.usage(`Cannot read --config ${source.config}: ${(err as Error).message}`);
    }
  }
  const dataDir = throwaway ? mkdtempSync(join(tmpdir(), 'switchboard-cli-')) : resolve(source.dataDir ?? defaultDataDir());
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  let lock: DataLock;
  try {
    lock = acquireDataLock(dataDir, { mode: 'cli' });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const code = err instanceof AppError ? err.code : 'data_locked';
    // The single-process rule: a second core on the same folder would overwrite the first one's writes. A running app
    // publishes its control door (control.json) and was used instead; this one holds the folder without one (it is
    // starting or stopping, or it is another switchboard command).
    throw new CliError(
      EXIT.switchboard,
      code,
      `${message}\nThe switchboard command uses a running Switchboard's core through its control.json, but none answers ` +
        'on this folder, so it cannot start its own while the folder is in use. Try again in a moment, or use another ' +
        'folder with --data-dir, or a throwaway run with --config FILE.',
    );
  }
  let dispatch: Dispatch;
  let shutdown: () => Promise<unknown>;
  // The same redirect listeners the shells hold, here in the command's own process (its core runs in it too).
  const signIns = new SignInRedirects({ log: (level, message) => level === 'warn' && out.note(message) });
  try {
    const booted = await bootstrap({
      mode: 'headless',
      version: VERSION,
      settingsStore: createSettingsStore(dataDir),
      // A throwaway run keeps nothing, secrets included.
      credentials: throwaway || process.env['SWITCHBOARD_CREDENTIALS'] === 'memory' ? 'memory' : 'auto',
      logger: createLogger(throwaway ? {} : { dataDir }),
      dataLock: lock,
      // The command prints the sign-in address itself (connect.ts), once, and as pendingAuth with --json.
      authOpener: createPrintingOpener(() => undefined),
      signIns: heldSignIns((request) => signIns.serve(request)),
      ...(source.otlp !== undefined ? { otlpEndpoint: source.otlp } : {}),
    });
    dispatch = booted.dispatch;
    shutdown = async () => {
      await booted.host.shutdown();
      await signIns.close();
    };
  } catch (err) {
    await signIns.close();
    lock.release();
    if (throwaway) rmSync(dataDir, { recursive: true, force: true });
    throw new CliError(EXIT.switchboard, 'internal', `Switchboard's core did not start: ${(err as Error).message}`);
  }
  const core: CliCore = {
    dataDir,
    waitForAuthS: source.waitForAuthS,
    out,
    json: source.json === true,
    pasted: source.pasted ?? stdinLines,
    async call(method, args) {
      const envelope = await dispatch(method, args);
      if (!envelope.ok) throw CliError.fromCore(envelope.error);
      return envelope.value as InvokeResult<typeof method>;
    },
    async close() {
      await shutdown();
      if (throwaway) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  if (configText !== undefined) {
    try {
      await loadConfig(core, configText, source.yes, out);
    } catch (err) {
      await core.close();
      throw err;
    }
  }
  return core;
}

/** Imports the config's servers; with `yes`, approves their stdio launches, printing each one. */
async function loadConfig(core: CliCore, text: string, yes: boolean, out: Output): Promise<void> {
  const result = await core.call('servers.import', { text });
  for (const skipped of result.skipped) out.note(`Skipped "${skipped.key}" from the config: ${skipped.reason}`);
  for (const id of result.added) {
    const detail = await core.call('servers.get', { id });
    if (!detail.approval?.required) continue;
    if (!yes) continue;
    out.note(`Approving the launch of ${id} from the config (--yes): ${describeLaunch(detail.approval)}`);
    for (const warning of detail.approval.warnings) out.note(`  warning: ${warning.text}`);
    await core.call('servers.approve', { id, fingerprint: detail.approval.fingerprint });
  }
}
