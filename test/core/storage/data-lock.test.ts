// One Switchboard per data folder: the second process is refused with the holder named; a lock whose process is gone,
// or whose pid now belongs to another process, is taken over; a lock being written right now counts as held.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireDataLock, LOCK_FILE, processStartToken } from '../../../electron/core/storage/data-lock.js';
import { cleanup, tempDir } from '../../shared/support/harness.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await gone;
    }
  }
  dirs.splice(0).forEach(cleanup);
});
const dir = (): string => {
  const d = tempDir('sb-lock-');
  dirs.push(d);
  return d;
};

/** Another process that takes the lock through the same module and keeps it. */
async function holderProcess(d: string): Promise<ChildProcess> {
  const script = `import('./electron/core/storage/data-lock.ts').then((m) => { m.acquireDataLock(${JSON.stringify(d)}, { mode: 'headless' }); console.log('locked'); setInterval(() => {}, 1 << 30); });`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => (line === 'locked' ? resolve() : reject(new Error(line))));
    child.once('exit', (code) => reject(new Error(`holder exited with ${String(code)}`)));
  });
  return child;
}

describe('data-folder lock', () => {
  it('records its holder and releases only its own lock', () => {
    const d = dir();
    const lock = acquireDataLock(d, { mode: 'electron' });
    const recorded = JSON.parse(readFileSync(join(d, LOCK_FILE), 'utf8')) as Record<string, unknown>;
    expect(recorded).toMatchObject({ pid: process.pid, mode: 'electron' });
    lock.release();
    expect(existsSync(join(d, LOCK_FILE))).toBe(false);
    acquireDataLock(d, { mode: 'headless' }).release();
  });

  it('refuses a second process and names the one holding the folder; takes over once it is gone', async () => {
    const d = dir();
    const holder = await holderProcess(d);
    expect(() => acquireDataLock(d, { mode: 'electron' })).toThrow(
      expect.objectContaining({
        code: 'data_locked',
        message: expect.stringContaining(`Switchboard in headless mode (process ${holder.pid}`),
      }),
    );
    const gone = new Promise((r) => holder.once('exit', r));
    holder.kill('SIGKILL');
    await gone;
    const lock = acquireDataLock(d, { mode: 'electron' });
    expect(JSON.parse(readFileSync(join(d, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid, mode: 'electron' });
    lock.release();
  });

  it('takes over a lock whose pid now belongs to another process', () => {
    const d = dir();
    if (processStartToken(process.pid) === undefined) return; // the start token is only known on Linux
    writeFileSync(
      join(d, LOCK_FILE),
      JSON.stringify({ pid: process.pid, mode: 'headless', since: '2020-01-01T00:00:00.000Z', host: '', start: '1' }),
    );
    acquireDataLock(d, { mode: 'electron' }).release();
  });

  it('counts a lock file being written right now as held, and an old unreadable one as stale', () => {
    const d = dir();
    const file = join(d, LOCK_FILE);
    writeFileSync(file, '');
    expect(() => acquireDataLock(d, { mode: 'electron' })).toThrow(expect.objectContaining({ code: 'data_locked' }));
    const old = new Date(Date.now() - 60_000);
    utimesSync(file, old, old);
    acquireDataLock(d, { mode: 'electron' }).release();
  });
});
