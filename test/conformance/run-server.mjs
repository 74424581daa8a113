// Runs the official MCP conformance server suites (`--suite all`) against Switchboard's gateway fronting the
// conformance fixture server (test/conformance/gateway-host.ts). The tool needs Node >= 22 (scripts/find-node22.mjs
// finds or fetches one, as for the client suites), with listen-loopback.cjs (its servers bind 127.0.0.1) and
// gateway-auth.cjs (its clients send the gateway client's token) preloaded. The host runs on the project's Node
// and is stopped, and checked gone, at the end. Expected failures: expected-failures-server.yml.
// Usage: node test/conformance/run-server.mjs [--scenario NAME]
/* global process, console, setTimeout, clearTimeout, URL */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { findNode22 } from '../../scripts/find-node22.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const tool = join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
if (!existsSync(tool)) {
  console.error('conformance: @modelcontextprotocol/conformance is not installed (npm install)');
  process.exit(1);
}
const found = findNode22({ root });
if (found.error) {
  console.error(`conformance: ${found.error}`);
  process.exit(1);
}
const node22 = found.path;
console.log(`conformance (server suites): running the tool on Node from ${found.source} (${node22})`);

const host = spawn(process.execPath, ['--import', 'tsx', join(here, 'gateway-host.ts'), root], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
});
const exited = new Promise((r) => host.once('exit', r));
const ready = await new Promise((resolveReady, reject) => {
  const timer = setTimeout(() => reject(new Error('the gateway host did not start within 120 s')), 120_000);
  createInterface({ input: host.stdout }).once('line', (line) => {
    clearTimeout(timer);
    resolveReady(JSON.parse(line));
  });
  host.once('exit', (code) => reject(new Error(`the gateway host exited with ${String(code)}`)));
}).catch((err) => {
  console.error(`conformance: ${err.message}`);
  host.kill('SIGTERM');
  process.exit(1);
});

const scenario = process.argv.indexOf('--scenario');
const selection =
  scenario > 0
    ? ['--scenario', process.argv[scenario + 1]]
    : ['--suite', 'all', '--expected-failures', join(here, 'expected-failures-server.yml')];
if (process.argv.includes('--verbose')) selection.push('--verbose');
const cwd = mkdtempSync(join(tmpdir(), 'sb-conformance-server-results-'));
const r = spawnSync(
  node22,
  [
    '--require',
    join(here, 'listen-loopback.cjs'),
    '--require',
    join(here, 'gateway-auth.cjs'),
    tool,
    'server',
    '--url',
    ready.url,
    ...selection,
  ],
  {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NO_COLOR: '1', SWITCHBOARD_GATEWAY_ORIGIN: new URL(ready.url).origin, SWITCHBOARD_GATEWAY_TOKEN: ready.token },
  },
);
process.stdout.write(r.stdout ?? '');
rmSync(cwd, { recursive: true, force: true });

host.kill('SIGTERM');
const gone = await Promise.race([exited.then(() => true), new Promise((r2) => setTimeout(() => r2(false), 20_000))]);
if (!gone) {
  console.error('conformance: the gateway host did not stop on SIGTERM; killing it');
  host.kill('SIGKILL');
  process.exit(1);
}
process.exit(r.status ?? 1);
