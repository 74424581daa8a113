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
      'line-parse-worker': 'electron/core/transports/line-parse-worker.ts',
    },
    outdir: 'dist/electron',
    format: 'esm',
    outExtension: { '.js': '.mjs' },
    packages: 'external',
  }),
  // The core's own process (a Node child of the headless launcher, an Electron utility process of the desktop app),
  // with its dependencies bundled in: loaded from node_modules, Node resolved, stat'ed, read and linked hundreds of
  // files (the MCP SDK, zod, conf, OpenTelemetry) before the core could answer, over a second of a cold start. Split
  // at dynamic imports, so what only some runs need (the OTLP exporter) stays out of the first parse.
  build({
    ...common,
    entryPoints: { core: 'electron/core-process/entry.ts' },
    outdir: 'dist/electron',
    format: 'esm',
    outExtension: { '.js': '.mjs' },
    splitting: true,
    chunkNames: 'core-chunks/[name]-[hash]',
    // ESM builds first: jsonc-parser's UMD main requires its own files at run time, which a bundle cannot follow.
    mainFields: ['module', 'main'],
    // Electron's module (and electron-store, which imports it) exist only inside Electron; keytar is a native addon.
    external: ['electron', 'electron-store', '@github/keytar'],
    // Bundled CommonJS packages require Node's built-ins; an ES module has no `require` of its own.
    banner: { js: "import { createRequire as __coreRequire } from 'node:module'; const require = __coreRequire(import.meta.url);" },
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
