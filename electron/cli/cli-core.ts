// The commands' one typed door into a core: the contract's dispatch, so the command line uses exactly what the UI
// uses. The core is the running app's when Switchboard holds the data folder (through its control door), else one the
// command starts in this process for the command (local-core.ts). `--config FILE` runs on a throwaway data folder
// whose servers come from the file.
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { InvokeArgs, InvokeKey, InvokeResult, LaunchApproval } from '../../shared/contract.js';
import { defaultDataDir } from '../core/storage/default-data-dir.js';
import { CliError } from './cli-error.js';
import { connectToRunningApp, type ControlClient } from './control-client.js';
import type { Output } from './output.js';

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
  /** Its own core: runs the shutdown (servers ended, writes flushed, the lock released); the app's: ends the connection. */
  close(): Promise<void>;
}

/**
 * Opens the core for one command, or throws a CliError saying why it cannot. While Switchboard (headless or the
 * desktop app) runs on the data folder, the command uses that app's core through its control door (control.json)
 * rather than starting a second core on the folder; otherwise it starts its own (local-core.ts, loaded only then).
 * A `--config` run always starts its own, on a throwaway folder.
 */
export async function openCore(source: CoreSource, out: Output): Promise<CliCore> {
  if (source.config === undefined) {
    const dataDir = resolve(source.dataDir ?? defaultDataDir());
    const door = await connectToRunningApp(dataDir);
    if (door !== undefined) {
      if (source.otlp !== undefined) {
        door.close();
        throw CliError.usage(
          `--otlp cannot apply to the running Switchboard's core (process ${door.pid}) on ${dataDir}: set the OTLP endpoint in its ` +
            'Settings, or quit it first, or use --config FILE for a run of its own.',
        );
      }
      // On stderr: --json output stays the command's own.
      out.note(`Using the running Switchboard's core (process ${door.pid}) on ${dataDir}`);
      return routedCore(door, dataDir, source, out);
    }
  }
  const { openLocalCore } = await import('./local-core.js');
  return openLocalCore(source, out);
}

/** The commands' door into the running app's core: each call through its control door. */
function routedCore(door: ControlClient, dataDir: string, source: CoreSource, out: Output): CliCore {
  return {
    dataDir,
    waitForAuthS: source.waitForAuthS,
    out,
    json: source.json === true,
    pasted: source.pasted ?? stdinLines,
    async call(method, args) {
      const envelope = await door.call(method, args);
      if (!envelope.ok) throw CliError.fromCore(envelope.error);
      return envelope.value as InvokeResult<typeof method>;
    },
    // Only the connection: the app's core and the servers it connected keep running.
    close: () => Promise.resolve(door.close()),
  };
}

/** Lines of this process's stdin (nothing when stdin is closed or /dev/null). */
export async function* stdinLines(): AsyncIterable<string> {
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  try {
    for await (const line of rl) yield line;
  } finally {
    rl.close();
    // Reading stdin keeps the process alive; a sign-in that completed another way must not.
    process.stdin.pause();
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
