// Where the Switchboard being tested lives: the folder whose package.json is named "switchboard", found from this
// module (the source checkout, or an installed package's dist/testing), unless SWITCHBOARD_ROOT names another.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

function isSwitchboardPackage(dir: string): boolean {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) return false;
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === 'switchboard';
  } catch {
    return false;
  }
}

/** The root of the Switchboard package to launch. */
export function switchboardRoot(): string {
  const fromEnv = process.env['SWITCHBOARD_ROOT'];
  if (fromEnv) {
    const dir = resolve(fromEnv);
    if (!isSwitchboardPackage(dir))
      throw new Error(`SWITCHBOARD_ROOT=${fromEnv} is not a Switchboard checkout (no package.json named "switchboard")`);
    return dir;
  }
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (isSwitchboardPackage(dir)) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('Cannot find the Switchboard package above the testing kit; set SWITCHBOARD_ROOT');
    dir = up;
  }
}

/** The built headless entry under `root`, or an error that says how to build it. */
export function headlessEntry(root: string): string {
  const entry = join(root, 'dist', 'electron', 'headless.mjs');
  const page = join(root, 'dist', 'renderer', 'index.html');
  for (const needed of [entry, page]) {
    if (!existsSync(needed)) throw new Error(`Switchboard is not built: ${needed} is missing. Run \`npm run build\` in ${root}.`);
  }
  return entry;
}
