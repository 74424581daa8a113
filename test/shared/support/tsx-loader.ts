// The TypeScript loader fixtures run with, as an absolute file URL: a stdio server without a cwd runs in its own
// folder under the data folder, where a bare `--import tsx` would not resolve.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/** `node --import <this>` runs a .ts fixture from any working directory. */
export const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
