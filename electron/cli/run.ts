// `switchboard COMMAND …`: parses the command line, opens the core for the command, runs it and returns the exit
// code; every failure is a CliError (printed, or as JSON with --json) with its class's code.
import { createInterface } from 'node:readline/promises';
import { parseCommandLine, positiveNumber, type Flags } from './args.js';
import { CliError } from './cli-error.js';
import { openCore, type CliCore } from './cli-core.js';
import { EXIT, EXIT_TABLE, type ExitCode } from './exit-codes.js';
import { processOutput, type Output } from './output.js';

export const USAGE = `Usage: switchboard COMMAND [options]

Commands:
  servers list [--json]
  servers add [--id ID] [--name NAME] COMMAND…|URL   a pasted command line or a server URL
  servers import FILE                              mcp.json / Claude / Cursor / VS Code config
  servers approve ID [--yes]                       prints the exact launch, then approves it
  servers test ID [--yes] [--json]                 the connection doctor's walk
  tools list [--server ID] [--json]
  call TOOL [--args JSON|@file] [--server ID] [--json] [--timeout S]
  resources read URI --server ID [--json]
  prompts get NAME [--args JSON] --server ID [--json]
  run COLLECTION… [--reporter junit [--out FILE]] [--json]   saved calls with assertions (docs/collections.md)
  history export [CALL_ID…] [--name NAME] [--out FILE]       calls from the History (default: the saved ones) as a collection
  lint [--server ID] [--probe] [--json]            schema portability and catalog checks (--probe: call read-only tools that need no arguments)
  load TOOL [--args JSON] [--server ID] --concurrency N (--requests N | --duration S) [--rate R] [--allow-remote] [--json]

State:
  --data-dir DIR    Switchboard's data folder (default: the app's); while Switchboard runs on it, its core is used
  --config FILE     a throwaway run whose servers come from an mcp.json-style file
  --yes             approve the config's own launches (printed), or the launch shown by servers approve
  --wait-for-auth S wait for a needed sign-in (open the printed URL, or paste the redirect URL on stdin)
                    instead of exiting 4 at once
  --otlp URL        send OpenTelemetry traces of the run to an OTLP/HTTP endpoint (e.g. http://127.0.0.1:4318)

Exit codes:
${EXIT_TABLE.map((e) => `  ${e.code}  ${e.meaning}`).join('\n')}`;

type Command = (core: CliCore, words: string[], flags: Flags, out: Output) => Promise<ExitCode>;

/** A yes/no question on the terminal, or undefined when stdin is not one (then --yes is needed). */
function terminalConfirm(question: string): Promise<boolean> | undefined {
  if (!process.stdin.isTTY) return undefined;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  return rl.question(question).then(
    (answer) => {
      rl.close();
      return /^y(es)?$/i.test(answer.trim());
    },
    () => false,
  );
}

// Each command's module is loaded when it runs: a command routed to the running app loads only what it uses (the
// collection reader, the linter, the importer stay unread), which is most of its start-up.
const COMMANDS: Record<string, () => Promise<Command>> = {
  'servers list': async () => {
    const { serversList } = await import('./servers-commands.js');
    return (core, _w, flags, out) => serversList(core, flags, out);
  },
  'servers add': async () => (await import('./servers-commands.js')).serversAdd,
  'servers import': async () => (await import('./servers-commands.js')).serversImport,
  'servers approve': async () => {
    const { serversApprove } = await import('./servers-commands.js');
    return (core, words, flags, out) => serversApprove(core, words, flags, out, terminalConfirm);
  },
  'servers test': async () => (await import('./servers-commands.js')).serversTest,
  'tools list': async () => {
    const { toolsList } = await import('./tool-commands.js');
    return (core, _w, flags, out) => toolsList(core, flags, out);
  },
  call: async () => (await import('./tool-commands.js')).callCommand,
  'resources read': async () => (await import('./content-commands.js')).resourcesRead,
  'prompts get': async () => (await import('./content-commands.js')).promptsGet,
  run: async () => (await import('./run-command.js')).runCollections,
  load: async () => (await import('./load-command.js')).loadCommand,
  lint: async () => (await import('./lint-command.js')).lintCommand,
  history: async () => (await import('./history-command.js')).historyExport,
};

/** Finds the command for the leading words: two-word commands first. */
function findCommand(words: string[]): { command: () => Promise<Command>; rest: string[] } | undefined {
  const two = COMMANDS[words.slice(0, 2).join(' ')];
  if (words.length >= 2 && two) return { command: two, rest: words.slice(2) };
  const one = words[0] !== undefined ? COMMANDS[words[0]] : undefined;
  return one ? { command: one, rest: words.slice(1) } : undefined;
}

/** Runs one command line; resolves with its exit code. */
export async function run(argv: string[], out: Output = processOutput()): Promise<ExitCode> {
  let json = argv.includes('--json');
  try {
    const { words, flags } = parseCommandLine(argv);
    json = flags.json;
    if (flags.help || words.length === 0) {
      out.note(USAGE);
      return words.length === 0 && !flags.help ? EXIT.usage : EXIT.ok;
    }
    const found = findCommand(words);
    if (!found) throw CliError.usage(`Unknown command: ${words.slice(0, 2).join(' ')}\n${USAGE}`);
    if (flags.config !== undefined && flags.dataDir !== undefined) throw CliError.usage('Give --data-dir or --config, not both');
    // The command's module loads while the core opens.
    const loading = found.command();
    loading.catch(() => undefined); // awaited below; a core that cannot open is the failure to report
    const core = await openCore(
      {
        ...(flags.dataDir !== undefined ? { dataDir: flags.dataDir } : {}),
        ...(flags.config !== undefined ? { config: flags.config } : {}),
        ...(flags.waitForAuth !== undefined ? { waitForAuthS: positiveNumber('wait-for-auth', flags.waitForAuth) ?? 0 } : {}),
        ...(flags.otlp !== undefined ? { otlp: flags.otlp } : {}),
        json: flags.json,
        yes: flags.yes,
      },
      out,
    );
    try {
      return await (
        await loading
      )(core, found.rest, flags, out);
    } finally {
      await core.close();
    }
  } catch (err) {
    const failure =
      err instanceof CliError ? err : new CliError(EXIT.switchboard, 'internal', `unexpected failure: ${(err as Error).message}`);
    if (json) out.json({ ok: false, exitCode: failure.exitCode, code: failure.code, message: failure.message, ...failure.details });
    out.note(`switchboard: ${failure.message}`);
    return failure.exitCode;
  }
}

/** Runs and exits with the code, after stdout has drained. */
export function runAndExit(argv: string[]): void {
  void run(argv).then((code) => {
    process.exitCode = code;
    // Servers' lingering handles must not keep a finished command alive.
    setImmediate(() => process.exit(code));
  });
}
