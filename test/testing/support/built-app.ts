// Builds the app into dist/ for tests that run the built app, when dist/ is missing or older than its sources, so
// `npm run test:unit` passes in a fresh clone and never tests a stale build.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** One part of the build: the sources it reads, a file it writes, and how to run it. */
interface BuildPart {
  inputs: string[];
  output: string;
  args: string[];
}

const PARTS: Record<'node' | 'renderer', BuildPart> = {
  node: {
    inputs: ['electron', 'shared', 'testing', 'package.json', 'scripts/build-node.mjs'],
    output: 'dist/electron/headless.mjs',
    args: ['scripts/build-node.mjs'],
  },
  renderer: {
    inputs: ['renderer', 'shared', 'package.json'],
    output: 'dist/renderer/index.html',
    args: [join('node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn'],
  },
};

/** The newest modification time of a file or of any file below a folder. */
function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

function stale(part: BuildPart): boolean {
  const output = join(ROOT, part.output);
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return part.inputs.some((input) => newest(join(ROOT, input)) > built);
}

/** Runs each named part of the build that is missing or stale (synchronously: a test's beforeAll waits for it). */
export function ensureBuilt(parts: ReadonlyArray<keyof typeof PARTS>): void {
  for (const name of parts) {
    const part = PARTS[name];
    if (stale(part)) execFileSync(process.execPath, part.args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  }
}

/** How long a build may take on a loaded machine. */
export const BUILD_TIMEOUT_MS = 300_000;
