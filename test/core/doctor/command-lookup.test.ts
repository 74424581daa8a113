// The walk's command step finds the file a connection would run: on Linux the PATH search with executability, on
// (simulated) Windows the stdio transport's own PATHEXT resolver, which never searches the current folder.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lookupCommand } from '../../../electron/core/doctor/command-lookup.js';

const dir = mkdtempSync(join(tmpdir(), 'sb-lookup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('on Linux', () => {
  it('finds the first executable match on PATH and names a non-executable one', async () => {
    const a = join(dir, 'a');
    const b = join(dir, 'b');
    mkdirSync(a);
    mkdirSync(b);
    writeFileSync(join(a, 'tool'), '#!/bin/sh\n');
    chmodSync(join(a, 'tool'), 0o644);
    writeFileSync(join(b, 'tool'), '#!/bin/sh\n');
    chmodSync(join(b, 'tool'), 0o755);
    const found = await lookupCommand('tool', { pathEnv: `${a}:${b}`, platform: 'linux' });
    expect(found).toMatchObject({ path: join(b, 'tool'), executable: true, searched: [a, b] });
    const only = await lookupCommand('tool', { pathEnv: a, platform: 'linux' });
    expect(only).toMatchObject({ path: join(a, 'tool'), executable: false, problem: 'it is not executable (mode 644)' });
    expect(await lookupCommand('missing-tool', { pathEnv: `${a}:${b}`, platform: 'linux' })).toMatchObject({ executable: false });
  });
});

describe('on Windows (simulated)', () => {
  const files = new Set(['C:\\Program Files\\nodejs\\npx.cmd', 'C:\\work\\npx.cmd', 'C:\\tools\\server.exe']);
  const isFile = (f: string) => files.has(f);
  const pathEnv = 'C:\\tools;C:\\Program Files\\nodejs';

  it('applies PATHEXT the way the transport does (npx is npx.cmd), never from the current folder', async () => {
    const npx = await lookupCommand('npx', { pathEnv, platform: 'win32', cwd: 'C:\\work', isFile });
    expect(npx).toMatchObject({
      path: 'C:\\Program Files\\nodejs\\npx.cmd',
      executable: true,
      searched: ['C:\\tools', 'C:\\Program Files\\nodejs'],
    });
    expect(await lookupCommand('server', { pathEnv, platform: 'win32', isFile })).toMatchObject({ path: 'C:\\tools\\server.exe' });
    expect(await lookupCommand('npx', { pathEnv: 'C:\\tools', platform: 'win32', cwd: 'C:\\work', isFile })).toMatchObject({
      executable: false,
    });
  });

  it('resolves a relative path against the working folder', async () => {
    const found = await lookupCommand('.\\npx', { pathEnv, platform: 'win32', cwd: 'C:\\work', isFile });
    expect(found).toMatchObject({ path: 'C:\\work\\npx.cmd', executable: true, searched: [] });
  });
});
