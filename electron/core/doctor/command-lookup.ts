// Finds a command the way spawn() will: a path is checked as given, a bare name is searched in PATH (with the
// PATHEXT extensions on Windows). Reports the first executable match, or the first match that is not executable.
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';

/** What looking a command up found. */
export interface CommandLookup {
  /** The command as configured. */
  command: string;
  /** The file it resolves to (the first executable match, else the first match that exists). */
  path?: string;
  /** Whether that file can be executed. */
  executable: boolean;
  /** Why it cannot be, when it cannot ("a directory", "not executable (mode 644)"). */
  problem?: string;
  /** PATH directories searched (empty when the command is a path). */
  searched: string[];
}

/** Where and how to look. */
export interface LookupOptions {
  /** The PATH the child will get. */
  pathEnv: string;
  /** Working directory for a relative path (the child's cwd). */
  cwd?: string;
  /** Platform (tests). */
  platform?: NodeJS.Platform;
  /** PATHEXT on Windows (defaults to the usual list). */
  pathext?: string;
}

const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';

/** True when the command names a file by path rather than a program looked up in PATH. */
export function isPathLike(command: string, platform: NodeJS.Platform = process.platform): boolean {
  return command.includes('/') || (platform === 'win32' && (command.includes('\\') || /^[a-zA-Z]:/.test(command)));
}

/** Looks a command up as spawn() would. */
export async function lookupCommand(command: string, opts: LookupOptions): Promise<CommandLookup> {
  const platform = opts.platform ?? process.platform;
  const win = platform === 'win32';
  const names = win ? withExtensions(command, opts.pathext ?? DEFAULT_PATHEXT) : [command];
  if (isPathLike(command, platform)) {
    const base = opts.cwd ?? process.cwd();
    const candidates = names.map((n) => (path.isAbsolute(n) ? n : path.resolve(base, n)));
    return { command, searched: [], ...(await firstUsable(candidates, win)) };
  }
  const delimiter = win ? ';' : ':';
  const dirs = opts.pathEnv.split(delimiter).filter((d) => d !== '');
  const candidates = dirs.flatMap((dir) => names.map((n) => path.join(dir, n)));
  return { command, searched: dirs, ...(await firstUsable(candidates, win)) };
}

/** The command itself (when it already has a PATHEXT extension) or the command with each extension appended. */
function withExtensions(command: string, pathext: string): string[] {
  const exts = pathext
    .split(';')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  const lower = command.toLowerCase();
  if (exts.some((e) => lower.endsWith(e.toLowerCase()))) return [command];
  return exts.map((e) => `${command}${e}`);
}

async function firstUsable(candidates: string[], win: boolean): Promise<Omit<CommandLookup, 'command' | 'searched'>> {
  let fallback: Omit<CommandLookup, 'command' | 'searched'> | undefined;
  for (const file of candidates) {
    let info;
    try {
      info = await stat(file);
    } catch {
      continue;
    }
    if (info.isDirectory()) {
      fallback ??= { path: file, executable: false, problem: 'it is a directory' };
      continue;
    }
    if (!info.isFile()) {
      fallback ??= { path: file, executable: false, problem: 'it is not a regular file' };
      continue;
    }
    if (win) return { path: file, executable: true };
    try {
      await access(file, constants.X_OK);
      return { path: file, executable: true };
    } catch {
      fallback ??= { path: file, executable: false, problem: `it is not executable (mode ${(info.mode & 0o777).toString(8)})` };
    }
  }
  return fallback ?? { executable: false };
}
