// The sandboxed preload needs only the contract's key lists, not the validators they are the keys of: this esbuild
// plugin reads the lists from the contract at build time, so the preload ships as a few kilobytes without zod.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const schemas = fileURLToPath(new URL('../shared/contract-schemas.ts', import.meta.url));

/** esbuild plugin: `contract-schemas.js` becomes its two key lists, computed from the contract at build time. */
export const contractKeysOnly = {
  name: 'contract-keys-only',
  setup(b) {
    b.onResolve({ filter: /\/contract-schemas\.js$/ }, (args) => ({ path: args.path, namespace: 'contract-keys' }));
    b.onLoad({ filter: /.*/, namespace: 'contract-keys' }, async () => {
      const out = await build({ entryPoints: [schemas], bundle: true, platform: 'node', format: 'esm', write: false, logLevel: 'silent' });
      const code = Buffer.from(out.outputFiles[0].text).toString('base64');
      const { INVOKE_KEYS, EVENT_KEYS } = await import(`data:text/javascript;base64,${code}`);
      return {
        contents: `export const INVOKE_KEYS = ${JSON.stringify(INVOKE_KEYS)};\nexport const EVENT_KEYS = ${JSON.stringify(EVENT_KEYS)};\n`,
        loader: 'js',
      };
    });
  },
};
