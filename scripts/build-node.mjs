// Bundles the node side: Electron main (ESM), preload (CJS, sandboxed), the headless entry, the gateway's stdio
// entry point (dist/bin/switchboard-gateway.mjs, the package's bin), the `switchboard` command line (dist/bin/switchboard.mjs) and the Playwright kit exported as
// switchboard/testing (its types come from `npm run build:testing`). The demo server runs in-process, so it has no
// entry of its own.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { contractKeysOnly } from './contract-keys-plugin.mjs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  define: { __APP_VERSION__: JSON.stringify(pkg.version) },
};

await Promise.all([
  build({
    ...common,
    // The line-parse worker sits beside main and headless: the stdio transport finds it there.
    entryPoints: {
      main: 'electron/main.ts',
      headless: 'electron/headless.ts',
      // The core's own process: a Node child of the headless launcher, an Electron utility process of the desktop app.
      core: 'electron/core-process/entry.ts',
      'line-parse-worker': 'electron/core/transports/line-parse-worker.ts',
    },
    outdir: 'dist/electron',
    format: 'esm',
    outExtension: { '.js': '.mjs' },
    packages: 'external',
  }),
  build({
    ...common,
    entryPoints: { preload: 'electron/preload.ts' },
    outdir: 'dist/electron',
    format: 'cjs',
    outExtension: { '.js': '.cjs' },
    external: ['electron'],
    plugins: [contractKeysOnly],
  }),
  build({
    ...common,
    entryPoints: { 'switchboard-gateway': 'electron/gateway-cli/main.ts' },
    outdir: 'dist/bin',
    format: 'esm',
    outExtension: { '.js': '.mjs' },
    packages: 'external',
    banner: { js: '#!/usr/bin/env node' },
  }),
  // The command line reads YAML collections with js-yaml, a development dependency: it is bundled in, and only the
  // package's own dependencies stay external (they are installed with the package).
  build({
    ...common,
    entryPoints: { switchboard: 'electron/cli/main.ts' },
    outdir: 'dist/bin',
    format: 'esm',
    outExtension: { '.js': '.mjs' },
    // Split at its dynamic imports: a command routed to the running app's core never loads the core, the SDK or
    // OpenTelemetry (electron/cli/local-core.ts is imported only when the command starts its own core).
    splitting: true,
    chunkNames: 'switchboard-chunks/[name]-[hash]',
    external: Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies }).flatMap((name) => [name, `${name}/*`]),
    banner: { js: '#!/usr/bin/env node' },
  }),
  build({
    ...common,
    entryPoints: { index: 'testing/index.ts' },
    outdir: 'dist/testing',
    format: 'esm',
    outExtension: { '.js': '.mjs' },
    packages: 'external',
  }),
]);
