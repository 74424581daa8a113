import type { Plugin } from 'esbuild';

/** esbuild plugin: `contract-schemas.js` becomes its two key lists, computed from the contract at build time. */
export declare const contractKeysOnly: Plugin;
