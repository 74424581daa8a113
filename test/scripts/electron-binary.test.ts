// What `npm start` does about Electron's binary: run it, fetch it with Electron's own installer (saying so), or
// say why it cannot and the exact command that fetches it. The file system is a map; nothing is downloaded.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { electronBinary, fetchFailedMessage, startPlan } from '../../scripts/electron-binary.mjs';

const root = '/app';
const pkgDir = join(root, 'node_modules', 'electron');
const pkg = JSON.stringify({ name: 'electron', version: '45.5.0' });

function fs(files: Record<string, string>) {
  return {
    exists: (p: string) => p in files,
    read: (p: string) => {
      const text = files[p];
      if (text === undefined) throw new Error(`ENOENT ${p}`);
      return text;
    },
  };
}

const packageOnly = { [join(pkgDir, 'install.js')]: '', [join(pkgDir, 'package.json')]: pkg };
const downloaded = { ...packageOnly, [join(pkgDir, 'path.txt')]: 'electron\n', [join(pkgDir, 'dist', 'electron')]: '' };

describe('startPlan', () => {
  it('runs the binary that path.txt names', () => {
    expect(startPlan({ root, pkgDir, env: {}, platform: 'linux', ...fs(downloaded) })).toEqual({
      kind: 'run',
      bin: join(pkgDir, 'dist', 'electron'),
    });
  });

  it("fetches with Electron's own installer when the package is there without its binary, and says so", () => {
    const plan = startPlan({ root, pkgDir, env: {}, platform: 'linux', ...fs(packageOnly) });
    expect(plan).toMatchObject({ kind: 'fetch', installer: join(pkgDir, 'install.js'), command: 'node node_modules/electron/install.js' });
    if (plan.kind !== 'fetch') throw new Error('fetch expected');
    expect(plan.message).toMatch(/^Electron 45\.5\.0's binary is not downloaded yet; fetching it now/);
    // path.txt left behind by an interrupted download, the binary itself missing: fetch again.
    const partial = { ...packageOnly, [join(pkgDir, 'path.txt')]: 'electron' };
    expect(startPlan({ root, pkgDir, env: {}, platform: 'linux', ...fs(partial) }).kind).toBe('fetch');
  });

  it('does not fetch when ELECTRON_SKIP_BINARY_DOWNLOAD is set, and gives the exact command', () => {
    const plan = startPlan({ root, pkgDir, env: { ELECTRON_SKIP_BINARY_DOWNLOAD: '1' }, platform: 'linux', ...fs(packageOnly) });
    expect(plan.kind).toBe('cannot');
    if (plan.kind !== 'cannot') throw new Error('cannot expected');
    expect(plan.message).toContain('ELECTRON_SKIP_BINARY_DOWNLOAD is set');
    expect(plan.message).toContain('node node_modules/electron/install.js');
    expect(plan.message).toContain('npm run headless');
    // "0" and "false" do not turn the download off.
    expect(startPlan({ root, pkgDir, env: { ELECTRON_SKIP_BINARY_DOWNLOAD: '0' }, platform: 'linux', ...fs(packageOnly) }).kind).toBe(
      'fetch',
    );
  });

  it('without the electron package it says to run npm install', () => {
    const plan = startPlan({ root, pkgDir, env: {}, platform: 'linux', ...fs({}) });
    expect(plan).toMatchObject({ kind: 'cannot' });
    if (plan.kind !== 'cannot') throw new Error('cannot expected');
    expect(plan.message).toContain('Run: npm install');
  });

  it('ELECTRON_OVERRIDE_DIST_PATH: runs the executable there, or says it is missing (never fetches over it)', () => {
    const env = { ELECTRON_OVERRIDE_DIST_PATH: '/opt/electron' };
    expect(startPlan({ root, pkgDir, env, platform: 'win32', ...fs({ [join('/opt/electron', 'electron.exe')]: '' }) })).toEqual({
      kind: 'run',
      bin: join('/opt/electron', 'electron.exe'),
    });
    const missing = startPlan({ root, pkgDir, env, platform: 'linux', ...fs(packageOnly) });
    expect(missing.kind).toBe('cannot');
    expect(electronBinary({ pkgDir, env, platform: 'linux', ...fs(packageOnly) })).toBeNull();
  });

  it('after a failed fetch the message names the command and the headless alternative', () => {
    const plan = startPlan({ root, pkgDir, env: {}, platform: 'linux', ...fs(packageOnly) });
    if (plan.kind !== 'fetch') throw new Error('fetch expected');
    const message = fetchFailedMessage(plan, 1);
    expect(message).toContain('ended with code 1');
    expect(message).toContain('Fetch it with: node node_modules/electron/install.js');
    expect(message).toContain('npm run headless');
    expect(fetchFailedMessage(plan, null)).toContain('was stopped');
  });
});
