// Checklist G1 and G2 (issue 22): a real child process writes the settings (G1) or the app grants (G2) through the
// real store over and over and is killed with SIGKILL at a random point; after every kill the file loads, with no
// notice, as the last version the child said was written or the one it was writing. Rounds are counted, not timed.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GrantsStore } from '../../electron/core/apps/grants-store.js';
import { processAlive } from '../../electron/core/transports/process-group.js';
import { createSettingsStore } from '../../electron/platform/settings-store.js';
import { cleanup, tempDir } from '../shared/support/harness.js';

const LOOP = join(import.meta.dirname, '../fixtures/core/write-loop.ts');
const ROUNDS = 6;
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(cleanup));

/** Runs the writer until it has acknowledged `acks` writes, kills it with SIGKILL, and returns the last acknowledged n. */
async function killAfter(kind: 'settings' | 'grants', dir: string, acks: number): Promise<number> {
  const child = spawn(process.execPath, ['--import', 'tsx', LOOP, kind, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_c, signal) => resolve(signal)));
  let last = 0;
  await new Promise<void>((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const lines = buf.split('\n');
      buf = lines.pop() ?? '';
      for (const l of lines) last = Number(l);
      if (last >= acks) {
        child.kill('SIGKILL');
        resolve();
      }
    });
    child.once('exit', (code) => (last >= acks ? resolve() : reject(new Error(`the writer exited early (${code})`))));
  });
  expect(await exited).toBe('SIGKILL');
  expect(processAlive(child.pid!)).toBe(false);
  return last;
}

const randomAcks = (): number => 1 + Math.floor(Math.random() * 40);

describe('kill -9 while writing', () => {
  it('G1: the settings file always loads as the last written version or the next one', async () => {
    const dir = tempDir('sb-kill-settings-');
    dirs.push(dir);
    for (let round = 0; round < ROUNDS; round++) {
      const acked = await killAfter('settings', dir, randomAcks());
      const loaded = createSettingsStore(dir).load();
      expect(loaded.notices).toEqual([]);
      const versions = new Set(Object.values(loaded.settings.approvals));
      expect(versions.size).toBe(1);
      const n = Number(String([...versions][0]).slice(1));
      expect([acked, acked + 1]).toContain(n);
    }
  }, 120_000);

  it('G2: the app grants file always loads whole, never moved aside', async () => {
    const dir = tempDir('sb-kill-grants-');
    dirs.push(dir);
    for (let round = 0; round < ROUNDS; round++) {
      await killAfter('grants', dir, randomAcks());
      const problems: string[] = [];
      const store = new GrantsStore(dir, (p) => problems.push(p.message));
      expect(store.loadProblem).toBeUndefined();
      expect(problems).toEqual([]);
      const shapes = new Set(Array.from({ length: 400 }, (_, i) => JSON.stringify(store.get(`server-${i}`))));
      expect(shapes.size).toBe(1);
      expect(store.get('server-0').popups).toBe(true);
    }
  }, 120_000);
});
