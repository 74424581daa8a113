#!/usr/bin/env node
// `npm start`: launches the built app in Electron, fetching Electron's binary first when it is missing and can be
// fetched; otherwise it says which command fetches it, and how to run headless instead.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronBinary, fetchFailedMessage, startPlan } from './electron-binary.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkgDir = join(root, 'node_modules', 'electron');

const plan = startPlan({ root, pkgDir });
let bin = plan.kind === 'run' ? plan.bin : null;
if (plan.kind === 'cannot') {
  console.error(plan.message);
  process.exit(1);
}
if (plan.kind === 'fetch') {
  console.log(plan.message);
  const result = spawnSync(process.execPath, [plan.installer], { cwd: root, stdio: 'inherit' });
  bin = electronBinary({ pkgDir });
  if (!bin) {
    console.error(fetchFailedMessage(plan, result.status));
    process.exit(1);
  }
  console.log(`Electron is installed: ${bin}`);
}
const child = spawn(bin, [root, ...process.argv.slice(2)], { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 0));
