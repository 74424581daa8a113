// How a stdio server's command becomes a process on Windows, without a shell. Node's spawn (libuv) neither applies
// PATHEXT (`npx` is really `npx.cmd`) nor runs .cmd/.bat files without a shell (refused since the fix for
// CVE-2024-27980), and cmd.exe re-parses a batch file's command line with its own rules (the "BatBadBut" class:
// `"`, `%VAR%`, `&`, `|` in an argument can run other commands). So:
//  - the command is looked up in the child's PATH with the child's PATHEXT (never in the current folder);
//  - an .exe/.com (or anything not a batch file) is spawned directly, libuv quoting its arguments;
//  - a .cmd/.bat runs as `cmd.exe /e:ON /v:OFF /d /c ""<script>" <args>"` with each argument quoted so cmd.exe and
//    the script see it as one literal argument: `"` doubled, `%` defused as `%%cd:~,%` (expands to nothing, so
//    `%VAR%` is never expanded), delayed expansion off (`!`), AutoRun off (/d); a CR, LF or NUL (which cmd.exe
//    cannot carry inside an argument) is refused. This is the escaping the Rust standard library adopted for the
//    same vulnerability.
// Everything is a pure function of its inputs (platform, environment, a file probe) so it is tested on any OS.
import { statSync } from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../shared/errors.js';

/** What spawn() should run. */
export interface Launch {
  /** The program to spawn (the command itself off Windows). */
  file: string;
  /** Its arguments. */
  args: string[];
  /** Pass the arguments to CreateProcess as written (the cmd.exe line is already quoted). */
  windowsVerbatimArguments: boolean;
  /** The batch file or executable the command resolved to, when it was looked up. */
  resolved?: string;
}

/** Inputs of resolveLaunch; platform, env and probe default to this process. */
export interface LaunchInput {
  command: string;
  args: string[];
  /** The child's environment (PATH and PATHEXT are read from it, case-insensitively on Windows). */
  env: Record<string, string>;
  /** Working directory, for a relative command path. */
  cwd?: string | undefined;
  platform?: NodeJS.Platform;
  /** True when a regular file exists at the path. */
  isFile?: (file: string) => boolean;
}

/** PATHEXT when the environment has none. */
export const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';

const BATCH = /\.(cmd|bat)$/i;
/** ASCII characters that never need quoting for cmd.exe (everything else outside letters and digits does). */
const SAFE_ASCII = new Set('#$*+-./:?@\\_');

const fileExists = (file: string): boolean => {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

function envValue(env: Record<string, string>, key: string): string | undefined {
  if (env[key] !== undefined) return env[key];
  const lower = key.toLowerCase();
  for (const [k, v] of Object.entries(env)) if (k.toLowerCase() === lower) return v;
  return undefined;
}

/** The program and arguments to spawn for a stdio command. Throws spawn_failed for an argument no batch file can take. */
export function resolveLaunch(input: LaunchInput): Launch {
  const platform = input.platform ?? process.platform;
  if (platform !== 'win32') return { file: input.command, args: input.args, windowsVerbatimArguments: false };
  const found = findWindowsCommand(input.command, input.env, input.cwd, input.isFile ?? fileExists);
  // Not found: spawn the name as given, so the transport reports "command not found" with the PATH it searched.
  if (found === undefined) return { file: input.command, args: input.args, windowsVerbatimArguments: false };
  if (!BATCH.test(found)) return { file: found, args: input.args, windowsVerbatimArguments: false, resolved: found };
  const comspec =
    envValue(input.env, 'ComSpec') ?? path.win32.join(envValue(input.env, 'SystemRoot') ?? 'C:\\Windows', 'System32', 'cmd.exe');
  return {
    file: comspec,
    args: ['/e:ON', '/v:OFF', '/d', '/c', batchCommandLine(found, input.args)],
    windowsVerbatimArguments: true,
    resolved: found,
  };
}

/**
 * Finds the file Windows would run for `command`: a path (absolute, or relative to `cwd`) is tried as written and
 * then with each PATHEXT extension; a bare name is tried the same way in each PATH folder, in order. The current
 * folder is not searched (a planted `npx.cmd` there must not win).
 */
export function findWindowsCommand(
  command: string,
  env: Record<string, string>,
  cwd: string | undefined,
  isFile: (file: string) => boolean,
): string | undefined {
  const exts = (envValue(env, 'PATHEXT') ?? DEFAULT_PATHEXT)
    .split(';')
    .map((e) => e.trim())
    .filter((e) => /^\.[^.\\/:*?"<>|]+$/.test(e));
  const candidates = (base: string): string[] => {
    const hasKnownExt = exts.some((e) => base.toLowerCase().endsWith(e.toLowerCase()));
    return [...(hasKnownExt ? [base] : []), ...exts.map((e) => `${base}${e.toLowerCase()}`)];
  };
  const isPath = /[\\/]/.test(command) || /^[A-Za-z]:/.test(command);
  if (isPath) {
    const base = path.win32.isAbsolute(command) ? command : path.win32.resolve(cwd ?? '.', command);
    return candidates(base).find(isFile);
  }
  const dirs = (envValue(env, 'PATH') ?? '')
    .split(';')
    .map((d) => d.trim().replace(/^"(.*)"$/, '$1'))
    .filter((d) => d !== '' && path.win32.isAbsolute(d));
  for (const dir of dirs) {
    const hit = candidates(path.win32.join(dir, command)).find(isFile);
    if (hit) return hit;
  }
  return undefined;
}

/** The command line cmd.exe runs for a batch file: `""<script>" <arg> <arg>"` (the outer quotes are /c's). */
export function batchCommandLine(script: string, args: readonly string[]): string {
  if (script.includes('"') || script.endsWith('\\')) {
    throw new AppError('spawn_failed', `The batch file path ${script} cannot be run safely (it contains a quote or ends with a backslash)`);
  }
  return `""${script}"${args.map((a) => ` ${quoteBatchArgument(a)}`).join('')}"`;
}

/** One argument quoted for a batch file run through cmd.exe, so it arrives as one literal argument. */
export function quoteBatchArgument(arg: string): string {
  if (/[\r\n\0]/.test(arg)) {
    throw new AppError(
      'spawn_failed',
      'An argument contains a line break or NUL, which a Windows batch file (.cmd/.bat) cannot receive safely; remove it or run the program directly',
    );
  }
  let quote = arg === '' || arg.endsWith('\\');
  for (const ch of arg) {
    const code = ch.codePointAt(0)!;
    const ascii = code < 0x80;
    const alnum = /[A-Za-z0-9]/.test(ch);
    if ((ascii && !alnum && !SAFE_ASCII.has(ch)) || code < 0x20 || (code >= 0x7f && code <= 0x9f)) quote = true;
  }
  let out = quote ? '"' : '';
  let backslashes = 0;
  for (const ch of arg) {
    if (ch === '\\') {
      backslashes += 1;
      out += ch;
      continue;
    }
    if (ch === '"') {
      // Backslashes before a quote are doubled, and the quote is doubled: cmd.exe and the script's parser both
      // keep it inside the argument.
      out += '\\'.repeat(backslashes) + '""';
    } else if (ch === '%') {
      // `%%cd:~,%` expands to an empty substring of %cd%: the `%` that follows can no longer start a %VAR%.
      out += '%%cd:~,%';
    } else {
      out += ch;
    }
    backslashes = 0;
  }
  if (quote) out += `${'\\'.repeat(backslashes)}"`;
  return out;
}
