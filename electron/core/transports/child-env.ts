// The environment a stdio server child gets: platform essentials plus configured values, never the whole
// parent environment unless the user opted in with `inheritEnv`.
import path from 'node:path';
import { cleanServerPath } from './server-path.js';

/** Variables a child inherits on macOS/Linux when `inheritEnv` is off. */
export const POSIX_ESSENTIAL_ENV: readonly string[] = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'TERM', 'LANG', 'TMPDIR'];

/** Variables a child inherits on Windows when `inheritEnv` is off. */
export const WINDOWS_ESSENTIAL_ENV: readonly string[] = [
  'PATH',
  'PATHEXT',
  'SystemRoot',
  'SystemDrive',
  'windir',
  'ComSpec',
  'USERPROFILE',
  'USERNAME',
  'HOMEDRIVE',
  'HOMEPATH',
  'APPDATA',
  'LOCALAPPDATA',
  'ProgramData',
  'ProgramFiles',
  'ProgramFiles(x86)',
  'ProgramW6432',
  'TEMP',
  'TMP',
  'PROCESSOR_ARCHITECTURE',
  'NUMBER_OF_PROCESSORS',
];

/** What the child environment is built from. */
export interface ChildEnvInput {
  /** Configured values (secrets already resolved); they win over everything else. */
  configured: Record<string, string>;
  /** Pass the whole parent environment through. */
  inheritEnv: boolean;
  /** PATH from the user's login shell, used instead of the parent's PATH. */
  loginPath?: string | undefined;
  /** The parent environment (defaults to process.env). */
  parent?: NodeJS.ProcessEnv;
  /** The platform (defaults to process.platform). */
  platform?: NodeJS.Platform;
  /** Folders whose node_modules/.bin chain is kept off the PATH (defaults to our install and start folder). */
  ownRoots?: readonly string[];
}

/** Builds the child environment. */
export function buildChildEnv(input: ChildEnvInput): Record<string, string> {
  const parent = input.parent ?? process.env;
  const platform = input.platform ?? process.platform;
  const env: Record<string, string> = {};
  if (input.inheritEnv) {
    for (const [key, value] of Object.entries(parent)) if (value !== undefined) env[key] = value;
  } else {
    const keys = platform === 'win32' ? WINDOWS_ESSENTIAL_ENV : POSIX_ESSENTIAL_ENV;
    for (const key of keys) {
      const value = lookup(parent, key, platform);
      // Skip exported shell functions (bash "() { ...}" values), as the SDK does.
      if (value === undefined || value.startsWith('()')) continue;
      env[key] = value;
    }
  }
  if (input.loginPath !== undefined && input.loginPath !== '') setPath(env, input.loginPath, platform);
  // Whichever PATH was inherited, npm's additions for our own scripts stay out (a configured PATH is the person's).
  const inherited = lookup(env, 'PATH', platform);
  if (inherited !== undefined) {
    setPath(env, cleanServerPath(inherited, { platform, ...(input.ownRoots ? { roots: input.ownRoots } : {}) }), platform);
  }
  for (const [key, value] of Object.entries(input.configured)) env[key] = value;
  return env;
}

/** The PATH directories a command is looked up in, for "command not found" evidence. */
export function searchedPath(env: Record<string, string>, platform: NodeJS.Platform = process.platform): string[] {
  const value = lookup(env, 'PATH', platform) ?? '';
  const delimiter = platform === 'win32' ? ';' : path.delimiter;
  return value.split(delimiter).filter((dir) => dir !== '');
}

function lookup(env: NodeJS.ProcessEnv | Record<string, string>, key: string, platform: NodeJS.Platform): string | undefined {
  const direct = env[key];
  if (direct !== undefined || platform !== 'win32') return direct;
  const lower = key.toLowerCase();
  for (const [k, v] of Object.entries(env)) if (k.toLowerCase() === lower) return v;
  return undefined;
}

function setPath(env: Record<string, string>, value: string, platform: NodeJS.Platform): void {
  if (platform === 'win32') {
    for (const k of Object.keys(env)) if (k.toLowerCase() === 'path') delete env[k];
  }
  env.PATH = value;
}
