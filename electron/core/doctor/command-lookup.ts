// Finds a command the way spawn() will: a path is checked as given, a bare name is searched in PATH. On Windows the
// stdio transport's own resolver decides (PATHEXT from the child's environment, the current folder never searched),
// so the walk reports the very file a connection would run. Reports the first executable match, or the first match
// that is not executable.
import { constants, statSync } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_PATHEXT, findWindowsCommand } from '../transports/windows-command.js';

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
  /** Windows only: whether a regular file exists at a path (tests simulate Windows with it). */
  isFile?: (file: string) => boolean;
}

const isRegularFile = (file: string): boolean => {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

/** True when the command names a file by path rather than a program looked up in PATH. */
export function isPathLike(command: string, platform: NodeJS.Platform = process.platform): boolean {
  return command.includes('/') || (platform === 'win32' && (command.includes('\\') || /^[a-zA-Z]:/.test(command)));
}

/** Looks a command up as spawn() would. */
export async function lookupCommand(command: string, opts: LookupOptions): Promise<CommandLookup> {
  const platform = opts.platform ?? process.platform;
  if (platform === 'win32') {
    const env = { PATH: opts.pathEnv, PATHEXT: opts.pathext ?? DEFAULT_PATHEXT };
    const found = findWindowsCommand(command, env, opts.cwd, opts.isFile ?? isRegularFile);
    const searched = isPathLike(command, platform) ? [] : opts.pathEnv.split(';').filter((d) => d !== '');
    return { command, searched, ...(found !== undefined ? { path: found } : {}), executable: found !== undefined };
  }
  if (isPathLike(command, platform)) {
    return { command, searched: [], ...(await firstUsable([path.resolve(opts.cwd ?? process.cwd(), command)])) };
  }
  const dirs = opts.pathEnv.split(':').filter((d) => d !== '');
  return { command, searched: dirs, ...(await firstUsable(dirs.map((dir) => path.join(dir, command)))) };
}

async function firstUsable(candidates: string[]): Promise<Omit<CommandLookup, 'command' | 'searched'>> {
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
    try {
      await access(file, constants.X_OK);
      return { path: file, executable: true };
    } catch {
      fallback ??= { path: file, executable: false, problem: `it is not executable (mode ${(info.mode & 0o777).toString(8)})` };
    }
  }
  return fallback ?? { executable: false };
}
