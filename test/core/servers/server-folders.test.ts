// Where a stdio server runs: with no working directory of its own, in its folder under the data folder (created
// 0700 at launch and shown in the server's details); the person's own cwd wins. A real stdio fixture writes a file
// into its working directory at start.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerConfigInput } from '../../../shared/config.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runDoctorWalk } from '../../../electron/core/doctor/doctor-walk.js';
import type { Host } from '../../../electron/core/host.js';
import { MemoryCredentialStore } from '../../../electron/platform/memory-credential-store.js';
import { cleanup, settingsStoreIn, tempDir, testCore } from '../../shared/support/harness.js';
import { addApproved, fixture } from '../sessions/helpers.js';

// The fixture runs away from the checkout, so tsx is loaded by its file URL rather than resolved from the cwd.
const TSX_LOADER = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/loader.mjs')).href;

function whereServer(id: string, cwd?: string): ServerConfigInput {
  return {
    id,
    name: id,
    startup: 'manual',
    transport: {
      type: 'stdio',
      command: process.execPath,
      args: ['--import', TSX_LOADER, fixture('where-am-i.ts')],
      env: {},
      ...(cwd !== undefined ? { cwd } : {}),
    },
  };
}

let dir: string;
let host: Host;

beforeEach(() => {
  dir = tempDir('sb-folders-');
  host = testCore({ settingsStore: settingsStoreIn(dir), credentials: new MemoryCredentialStore() });
});

afterEach(async () => {
  await host.shutdown();
  cleanup(dir);
});

async function where(id: string): Promise<{ cwd: string; path: string }> {
  const client = await host.sessions.client(id);
  const result = await client.callTool({ name: 'where', arguments: {} });
  const first = (result.content as { type: string; text?: string }[])[0];
  return JSON.parse(first?.text ?? '{}') as { cwd: string; path: string };
}

describe('server working folders', () => {
  it('a stdio server without a cwd runs in <data folder>/server-folders/<id>, created 0700, and its details say so', async () => {
    await addApproved(host, whereServer('wd'));
    const folder = join(dir, 'server-folders', 'wd');
    expect((await host.get('wd')).workDir).toBe(folder);
    expect(existsSync(folder)).toBe(false);
    const status = await host.sessions.connect('wd');
    expect(status.error?.message).toBeUndefined();
    expect(status.state).toBe('connected');
    expect((await where('wd')).cwd).toBe(folder);
    expect(readFileSync(join(folder, 'where-am-i.txt'), 'utf8')).toBe(folder);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'server-folders')).mode & 0o777).toBe(0o700);
    // Nothing was written where Switchboard itself runs.
    expect(existsSync(join(process.cwd(), 'where-am-i.txt'))).toBe(false);
    // The stored definition keeps "no cwd": the folder is a launch default, not a saved setting.
    expect(host.config('wd').transport).not.toHaveProperty('cwd');
  });

  it("the person's own working directory wins", async () => {
    const own = join(dir, 'mine');
    mkdirSync(own);
    await addApproved(host, whereServer('wd', own));
    expect((await host.get('wd')).workDir).toBe(own);
    expect((await host.sessions.connect('wd')).state).toBe('connected');
    expect((await where('wd')).cwd).toBe(own);
    expect(readFileSync(join(own, 'where-am-i.txt'), 'utf8')).toBe(own);
    expect(existsSync(join(dir, 'server-folders', 'wd'))).toBe(false);
  });

  it('the doctor shows the folder before its trial run, and creates nothing until the run is approved', async () => {
    const walk = await runDoctorWalk(host, { config: whereServer('wd') }, host.doctor);
    const spawn = walk.steps.find((s) => s.id === 'spawn');
    expect(spawn?.status).toBe('needs-approval');
    expect(spawn?.evidence.find((e) => e.label === 'Working directory')?.value).toBe(join(dir, 'server-folders', 'wd'));
    expect(existsSync(join(dir, 'server-folders', 'wd'))).toBe(false);
    const run = await runDoctorWalk(host, { config: whereServer('wd'), approvedLaunch: walk.trial!.fingerprint }, host.doctor);
    expect(run.ok).toBe(true);
    expect(readFileSync(join(dir, 'server-folders', 'wd', 'where-am-i.txt'), 'utf8')).toBe(join(dir, 'server-folders', 'wd'));
  });

  it('removing a server removes the folder Switchboard made for it; a link inside is removed, not followed', async () => {
    await addApproved(host, whereServer('wd'));
    expect((await host.sessions.connect('wd')).state).toBe('connected');
    const folder = join(dir, 'server-folders', 'wd');
    const outside = join(dir, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'keep.txt'), 'keep');
    symlinkSync(outside, join(folder, 'link'));
    await host.remove('wd');
    expect(existsSync(folder)).toBe(false);
    expect(existsSync(join(dir, 'server-folders', '.wd.created'))).toBe(false);
    expect(readFileSync(join(outside, 'keep.txt'), 'utf8')).toBe('keep');
    expect(host.info().notices.some((n) => n.id === 'server-folder-wd')).toBe(false);
  });

  it('a folder Switchboard did not make, or one that is a link out of the data folder, stays', async () => {
    const outside = join(dir, 'elsewhere');
    mkdirSync(outside);
    writeFileSync(join(outside, 'keep.txt'), 'keep');
    mkdirSync(join(dir, 'server-folders'), { recursive: true });
    // A link marked as made by Switchboard: never followed out.
    symlinkSync(outside, join(dir, 'server-folders', 'linked'));
    writeFileSync(join(dir, 'server-folders', '.linked.created'), '');
    // A folder the person made there themselves (no mark).
    mkdirSync(join(dir, 'server-folders', 'own'));
    writeFileSync(join(dir, 'server-folders', 'own', 'mine.txt'), 'mine');
    await addApproved(host, whereServer('linked'));
    await addApproved(host, whereServer('own'));
    await host.remove('linked');
    await host.remove('own');
    expect(readFileSync(join(outside, 'keep.txt'), 'utf8')).toBe('keep');
    expect(existsSync(join(dir, 'server-folders', 'linked'))).toBe(true);
    expect(readFileSync(join(dir, 'server-folders', 'own', 'mine.txt'), 'utf8')).toBe('mine');
  });

  it('an unmarked folder (made before folders were marked) goes when empty, stays with a notice when not; a link is never followed', async () => {
    const root = join(dir, 'server-folders');
    mkdirSync(root, { recursive: true });
    // Empty, no mark: what an earlier version left for a server that never wrote anything.
    mkdirSync(join(root, 'old'));
    // No mark, with a file in it: it may be the person's, so it stays.
    mkdirSync(join(root, 'busy'));
    writeFileSync(join(root, 'busy', 'cache.bin'), 'data');
    // No mark, a link to an empty folder outside the data folder: neither the link nor its target is touched.
    const outside = join(dir, 'outside-empty');
    mkdirSync(outside);
    symlinkSync(outside, join(root, 'lnk'));
    for (const id of ['old', 'busy', 'lnk']) await addApproved(host, whereServer(id));
    await host.remove('old');
    await host.remove('busy');
    await host.remove('lnk');
    expect(existsSync(join(root, 'old'))).toBe(false);
    expect(readFileSync(join(root, 'busy', 'cache.bin'), 'utf8')).toBe('data');
    const kept = host.info().notices.find((n) => n.id === 'server-folder-busy');
    expect(kept?.message).toContain(join(root, 'busy'));
    expect(kept?.message).toMatch(/was kept/);
    expect(lstatSync(join(root, 'lnk')).isSymbolicLink()).toBe(true);
    expect(statSync(outside).isDirectory()).toBe(true);
    expect(host.info().notices.some((n) => n.id === 'server-folder-old')).toBe(false);
  });

  it('an old folder the server wrote into before it was marked stays, named to the person', async () => {
    await addApproved(host, whereServer('wd'));
    expect((await host.sessions.connect('wd')).state).toBe('connected');
    await host.sessions.disconnect('wd');
    // As an earlier version left it: the folder with what the server wrote, and no mark.
    rmSync(join(dir, 'server-folders', '.wd.created'));
    await host.remove('wd');
    expect(existsSync(join(dir, 'server-folders', 'wd', 'where-am-i.txt'))).toBe(true);
    expect(host.info().notices.find((n) => n.id === 'server-folder-wd')?.message).toMatch(/Remove it by hand/);
  });

  // Needs a way to make a removal fail for any user (root passes permission checks): an immutable folder.
  const immutable = spawnSync('sh', ['-c', 'd=$(mktemp -d) && chattr +i "$d" && chattr -i "$d" && rmdir "$d"']).status === 0;
  it.skipIf(!immutable)('a folder that cannot be removed is reported to the person, naming it', async () => {
    await addApproved(host, whereServer('stuck'));
    expect((await host.sessions.connect('stuck')).state).toBe('connected');
    const folder = join(dir, 'server-folders', 'stuck');
    expect(spawnSync('chattr', ['+i', folder]).status).toBe(0);
    try {
      await host.remove('stuck');
      const notice = host.info().notices.find((n) => n.id === 'server-folder-stuck');
      expect(notice?.message).toContain(`The server's folder ${folder} could not be removed`);
      expect(host.list().some((s) => s.id === 'stuck')).toBe(false);
    } finally {
      spawnSync('chattr', ['-i', folder]);
    }
  });

  it('an HTTP server has no working folder', async () => {
    await host.add({ id: 'web', name: 'web', startup: 'manual', transport: { type: 'http', url: 'http://127.0.0.1:8/mcp' } });
    expect((await host.get('web')).workDir).toBeUndefined();
  });
});
