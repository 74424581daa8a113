// The PATH a stdio server gets: no node_modules/.bin of our install or start folder (npm puts them in front when it
// runs our scripts), no npm helper folders, no duplicates; everything else of the login shell's PATH, in order.
// Unit cases on the function, and a real stdio fixture started through the core reporting the PATH it was given.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Host } from '../../../electron/core/host.js';
import { buildChildEnv } from '../../../electron/core/transports/child-env.js';
import { cleanServerPath } from '../../../electron/core/transports/server-path.js';
import { MemoryCredentialStore } from '../../../electron/platform/memory-credential-store.js';
import { cleanup, settingsStoreIn, tempDir, testCore } from '../../shared/support/harness.js';
import { addApproved, fixture } from '../sessions/helpers.js';

const TSX_LOADER = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/loader.mjs')).href;

describe('cleanServerPath', () => {
  const roots = ['/home/p/switchboard'];

  it("drops every node_modules/.bin npm adds for our install (the folder and each parent's) and npm's node-gyp folder", () => {
    const path = [
      '/home/p/switchboard/node_modules/.bin',
      '/home/p/node_modules/.bin',
      '/home/node_modules/.bin',
      '/node_modules/.bin',
      '/usr/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin',
      '/home/p/.nvm/versions/node/v20/bin',
      '/usr/bin',
    ].join(':');
    expect(cleanServerPath(path, { roots, platform: 'linux' })).toBe('/home/p/.nvm/versions/node/v20/bin:/usr/bin');
  });

  it('keeps a node_modules/.bin of some other project, and drops duplicates keeping the first', () => {
    const path = '/root/.cargo/bin:/usr/bin:/srv/tool/node_modules/.bin:/root/.cargo/bin/:/usr/bin:';
    expect(cleanServerPath(path, { roots, platform: 'linux' })).toBe('/root/.cargo/bin:/usr/bin:/srv/tool/node_modules/.bin');
  });

  it('on Windows compares case-insensitively and uses ";"', () => {
    const path = 'C:\\App\\node_modules\\.bin;C:\\Windows;c:\\windows\\;C:\\Tools';
    expect(cleanServerPath(path, { roots: ['C:\\App'], platform: 'win32' })).toBe('C:\\Windows;C:\\Tools');
  });

  it('the child environment gets the cleaned login PATH; a PATH the person configured is left as written', () => {
    const loginPath = '/home/p/switchboard/node_modules/.bin:/usr/local/bin:/usr/bin:/usr/local/bin';
    const env = buildChildEnv({ configured: {}, inheritEnv: false, loginPath, parent: {}, platform: 'linux', ownRoots: roots });
    expect(env['PATH']).toBe('/usr/local/bin:/usr/bin');
    const inherited = buildChildEnv({
      configured: {},
      inheritEnv: true,
      parent: { PATH: loginPath },
      platform: 'linux',
      ownRoots: roots,
    });
    expect(inherited['PATH']).toBe('/usr/local/bin:/usr/bin');
    const configured = buildChildEnv({
      configured: { PATH: loginPath },
      inheritEnv: false,
      loginPath,
      parent: {},
      platform: 'linux',
      ownRoots: roots,
    });
    expect(configured['PATH']).toBe(loginPath);
  });
});

describe('the PATH a real stdio server reports', () => {
  let dir: string | undefined;
  let host: Host | undefined;
  afterEach(async () => {
    await host?.shutdown();
    if (dir !== undefined) cleanup(dir);
  });

  it("holds none of our node_modules/.bin folders nor npm's helpers, no duplicates, and the rest of the login PATH", async () => {
    dir = tempDir('sb-path-');
    // What `npm test` puts in front: the start folder's node_modules/.bin and each parent's.
    const ours = [process.cwd(), dirname(process.cwd()), dirname(dirname(process.cwd()))].map((d) => join(d, 'node_modules', '.bin'));
    const gyp = '/usr/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin';
    const loginPath = [...ours, gyp, '/usr/local/bin', '/usr/bin', '/bin', '/usr/bin'].join(':');
    host = testCore({
      settingsStore: settingsStoreIn(dir),
      credentials: new MemoryCredentialStore(),
      loginPath: () => Promise.resolve(loginPath),
    });
    await addApproved(host, {
      id: 'path',
      name: 'path',
      startup: 'manual',
      transport: { type: 'stdio', command: process.execPath, args: ['--import', TSX_LOADER, fixture('where-am-i.ts')], env: {} },
    });
    expect((await host.sessions.connect('path')).state).toBe('connected');
    const client = await host.sessions.client('path');
    const result = await client.callTool({ name: 'where', arguments: {} });
    const text = (result.content as { type: string; text?: string }[])[0]?.text ?? '{}';
    const reported = (JSON.parse(text) as { path: string }).path.split(':');
    expect(reported).toEqual(['/usr/local/bin', '/usr/bin', '/bin']);
  });
});
