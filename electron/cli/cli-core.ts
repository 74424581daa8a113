// Starts the core in this process for one command, the way headless does (bootstrap, the data folder's lock), and
// gives the commands one typed door into it: the contract's dispatcher, so the command line uses exactly what the UI
// uses. `--config FILE` runs on a throwaway data folder whose servers come from the file.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { InvokeArgs, InvokeKey, InvokeResult, LaunchApproval } from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';
import { bootstrap } from '../bootstrap.js';
import type { Dispatch } from '../core/dispatcher.js';
import { createLogger } from '../core/logging/logger.js';
import { tracesUrl } from '../core/telemetry/otlp.js';
import { acquireDataLock, type DataLock } from '../core/storage/data-lock.js';
import { defaultDataDir } from '../core/storage/default-data-dir.js';
import { heldSignIns } from '../core/auth/held-sign-ins.js';
import { createPrintingOpener } from '../platform/browser-opener.js';
import { SignInRedirects } from '../shell/sign-in-redirects.js';
import { createSettingsStore } from '../platform/settings-store.js';
import { CliError } from './cli-error.js';
import { EXIT } from './exit-codes.js';
import type { Output } from './output.js';

declare const __APP_VERSION__: string;
const VERSION = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : '0.0.0';

/** Where the command's state comes from. */
export interface CoreSource {
  /** The data folder (default: the app's). */
  dataDir?: string;
  /** An mcp.json-style file: a throwaway run with these servers. */
  config?: string;
  /** Approve the config's own stdio launches (printed). */
  yes: boolean;
  /** Wait this long for a needed sign-in to complete (the URL is printed) instead of failing at once. */
  waitForAuthS?: number;
  /** Send traces of this run to an OTLP/HTTP endpoint (overrides the settings' one). */
  otlp?: string;
  /** Machine output (`--json`): a pending sign-in is also announced as one JSON line. */
  json?: boolean;
  /** Lines a person pastes while a sign-in is awaited (default: this process's stdin). */
  pasted?: () => AsyncIterable<string>;
}

/** The running core as the commands see it. */
export interface CliCore {
  /** One contract call; a failure throws a CliError classed by its code. */
  call<K extends InvokeKey>(method: K, args: InvokeArgs<K>): Promise<InvokeResult<K>>;
  /** The data folder in use. */
  readonly dataDir: string;
  /** How long to wait for a needed sign-in (undefined: fail at once with the URL). */
  readonly waitForAuthS: number | undefined;
  /** Where progress lines go (stderr). */
  readonly out: Output;
  /** Whether the command prints JSON (`--json`). */
  readonly json: boolean;
  /** The lines pasted on stdin while a sign-in is awaited (a redirect URL completes it). */
  pasted(): AsyncIterable<string>;
  /** Runs the core's shutdown (servers ended, writes flushed, the lock released). */
  close(): Promise<void>;
}

/** Opens the core on the data folder or config file, or throws a CliError saying why it cannot. */
export async function openCore(source: CoreSource, out: Output): Promise<CliCore> {
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
    // The single-process rule: a second core on the same folder would overwrite the first one's writes.
    throw new CliError(
      EXIT.switchboard,
      code,
      `${message}\nThe switchboard command starts its own core on the data folder, so it cannot run while Switchboard uses it. ` +
        'Quit Switchboard first, or use another folder with --data-dir, or a throwaway run with --config FILE.',
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

/** Lines of this process's stdin (nothing when stdin is closed or /dev/null). */
async function* stdinLines(): AsyncIterable<string> {
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  try {
    for await (const line of rl) yield line;
  } finally {
    rl.close();
    // Reading stdin keeps the process alive; a sign-in that completed another way must not.
    process.stdin.pause();
  }
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

/** The exact launch, as one line: program, arguments, working directory and environment names. */
export function describeLaunch(a: LaunchApproval): string {
  const words = [a.command, ...a.args].map(quoteWord).join(' ');
  const cwd = a.cwd !== undefined ? ` (in ${a.cwd})` : '';
  const env =
    a.env.length > 0 ? ` with env ${a.env.map((e) => (e.secret ? `${e.name}=<secret>` : `${e.name}=${e.value ?? ''}`)).join(' ')}` : '';
  const inherit = a.inheritEnv ? ', inheriting the whole environment' : '';
  return `${words}${cwd}${env}${inherit}`;
}

function quoteWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
