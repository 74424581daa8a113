// Resolves the user's login-shell PATH once, so servers started with `npx`/`uvx` installed through nvm,
// Homebrew or similar are found when the app was launched from a GUI (whose PATH is minimal).
import { shellEnv } from 'shell-env';

/** How long the login shell may take before we fall back to our own PATH. */
export const LOGIN_PATH_TIMEOUT_MS = 5000;

/** Where the PATH came from. */
export type LoginPathSource = 'login-shell' | 'process' | 'timeout' | 'error';

/** The resolved PATH and how it was obtained. */
export interface LoginPathResult {
  /** The PATH to give stdio children. */
  path: string;
  /** Where it came from. */
  source: LoginPathSource;
  /** Milliseconds spent resolving. */
  elapsedMs: number;
}

/** Reads the environment of a login shell (injectable for tests). */
export type ShellEnvReader = () => Promise<Readonly<Record<string, string>>>;

let cached: Promise<LoginPathResult> | undefined;

/**
 * Resolves the login-shell PATH once and caches it. Never rejects: on Windows, on error or after the timeout
 * it resolves to process.env.PATH. The shell's PATH comes first, followed by any directories of our own PATH
 * it lacks.
 */
export function resolveLoginPath(opts: { timeoutMs?: number; reader?: ShellEnvReader } = {}): Promise<LoginPathResult> {
  cached ??= computeLoginPath(opts.timeoutMs ?? LOGIN_PATH_TIMEOUT_MS, opts.reader ?? (() => shellEnv()));
  return cached;
}

/** Forgets the cached value (tests, or after the user changed their shell profile). */
export function resetLoginPathCache(): void {
  cached = undefined;
}

/** Resolves without caching. */
export async function computeLoginPath(timeoutMs: number, reader: ShellEnvReader): Promise<LoginPathResult> {
  const started = Date.now();
  const own = process.env.PATH ?? '';
  const done = (path: string, source: LoginPathSource): LoginPathResult => ({ path, source, elapsedMs: Date.now() - started });
  if (process.platform === 'win32') return done(own, 'process');
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
    timer.unref();
  });
  try {
    const result = await Promise.race([reader(), timeout]);
    if (result === 'timeout') return done(own, 'timeout');
    const shellPath = result.PATH;
    if (typeof shellPath !== 'string' || shellPath.trim() === '') return done(own, 'process');
    return done(mergePaths(shellPath, own), 'login-shell');
  } catch {
    return done(own, 'error');
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/** `first` followed by the directories of `second` it does not already contain. */
export function mergePaths(first: string, second: string, delimiter = ':'): string {
  const dirs = first.split(delimiter).filter((d) => d !== '');
  const seen = new Set(dirs);
  for (const d of second.split(delimiter)) {
    if (d !== '' && !seen.has(d)) {
      seen.add(d);
      dirs.push(d);
    }
  }
  return dirs.join(delimiter);
}
