// The PATH a stdio server gets: the login shell's, without what npm put in front of it when it started Switchboard
// (every `node_modules/.bin` from our install or the directory we were started in upwards, and npm's node-gyp shim
// folder), and without duplicates. Otherwise `npx -y some-package` would run the copy in our own dev dependencies.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** A folder npm's script runner puts on PATH for node-gyp (…/@npmcli/run-script/lib/node-gyp-bin). */
const NPM_HELPER_SUFFIXES: readonly string[] = [
  ['@npmcli', 'run-script', 'lib', 'node-gyp-bin'].join('/'),
  ['npm', 'bin', 'node-gyp-bin'].join('/'),
];

/** Folders whose `node_modules/.bin` (and their parents') must not reach a server: our install and start folder. */
export function ownRoots(env: NodeJS.ProcessEnv = process.env): string[] {
  const roots = [process.cwd()];
  try {
    roots.push(path.dirname(fileURLToPath(import.meta.url)));
  } catch {
    // a bundle without a file URL: the start folder still counts
  }
  // npm records the folder `npm start`/`npm run` was typed in.
  if (env['INIT_CWD'] !== undefined && env['INIT_CWD'] !== '') roots.push(env['INIT_CWD']);
  return roots;
}

/** The `node_modules/.bin` folders npm would add for scripts run in `root` (root and each of its parents). */
function binsAbove(root: string, p: typeof path.posix): string[] {
  const bins: string[] = [];
  let dir = p.resolve(root);
  for (;;) {
    bins.push(p.join(dir, 'node_modules', '.bin'));
    const parent = p.dirname(dir);
    if (parent === dir) return bins;
    dir = parent;
  }
}

/** Options of cleanServerPath. */
export interface CleanPathOptions {
  /** Folders whose node_modules/.bin chain is left out (default: ownRoots()). */
  roots?: readonly string[];
  /** The platform (default: process.platform). */
  platform?: NodeJS.Platform;
}

/** The PATH without our install's and npm's helper folders, each folder once, in the original order. */
export function cleanServerPath(value: string, opts: CleanPathOptions = {}): string {
  const platform = opts.platform ?? process.platform;
  const win = platform === 'win32';
  const p = win ? path.win32 : path.posix;
  const delimiter = win ? ';' : ':';
  const norm = (dir: string): string => {
    const n = p.normalize(dir).replace(/[\\/]+$/, '');
    return win ? n.toLowerCase() : n;
  };
  const banned = new Set((opts.roots ?? ownRoots()).flatMap((root) => binsAbove(root, p)).map(norm));
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const dir of value.split(delimiter)) {
    if (dir === '') continue;
    const key = norm(dir);
    if (seen.has(key)) continue;
    seen.add(key);
    if (banned.has(key)) continue;
    const slashed = key.replace(/\\/g, '/');
    if (NPM_HELPER_SUFFIXES.some((suffix) => slashed.endsWith(`/${suffix}`))) continue;
    kept.push(dir);
  }
  return kept.join(delimiter);
}
