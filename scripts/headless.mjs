#!/usr/bin/env node
// `npm run headless [-- --port N --data-dir DIR --json]`: builds what is missing or stale, then
// runs the headless host. Build output goes to stderr so stdout carries only the URL line.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function newest(dir) {
  let max = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    max = Math.max(max, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return max;
}

function stale(output, sources) {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return sources.some((s) => existsSync(join(root, s)) && newest(join(root, s)) > built);
}

function run(script) {
  const r = spawnSync(process.execPath, script, { cwd: root, stdio: ['ignore', 2, 2] });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (stale(join(root, 'dist/electron/headless.mjs'), ['electron', 'shared'])) run(['scripts/build-node.mjs']);
if (stale(join(root, 'dist/renderer/index.html'), ['renderer', 'shared'])) {
  run([join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn']);
}

const child = spawn(process.execPath, [join(root, 'dist/electron/headless.mjs'), ...process.argv.slice(2)], { stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
