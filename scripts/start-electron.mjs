#!/usr/bin/env node
// `npm start`: launches the built app in Electron, or explains in one line how to run headless.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkgDir = join(root, 'node_modules', 'electron');

function electronBinary() {
  if (process.env.ELECTRON_OVERRIDE_DIST_PATH) {
    const name =
      process.platform === 'win32' ? 'electron.exe' : process.platform === 'darwin' ? 'Electron.app/Contents/MacOS/Electron' : 'electron';
    const p = join(process.env.ELECTRON_OVERRIDE_DIST_PATH, name);
    return existsSync(p) ? p : null;
  }
  const pathTxt = join(pkgDir, 'path.txt');
  if (!existsSync(pathTxt)) return null;
  const p = join(pkgDir, 'dist', readFileSync(pathTxt, 'utf8').trim());
  return existsSync(p) ? p : null;
}

const bin = electronBinary();
if (!bin) {
  console.error('The Electron binary is not installed on this machine; run the same app in your browser with `npm run headless` instead.');
  process.exit(1);
}
const child = spawn(bin, [root, ...process.argv.slice(2)], { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 0));
