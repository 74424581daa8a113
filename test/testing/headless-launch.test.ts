// The kit's launcher on the real built app: two Switchboards side by side get their own data folders and ports and
// stop cleanly with nothing left in /proc; a server that leaves a daemon behind makes the stop report it (by pid),
// and the daemon is killed. Builds dist/ first when it is missing or stale.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBridge, webSocketTransport } from '../../testing/bridge-client.js';
import { launchHeadless, type HeadlessApp } from '../../testing/headless-launch.js';
import { listProcesses } from '../../testing/process-tree.js';
import { BUILD_TIMEOUT_MS, ensureBuilt } from './support/built-app.js';
import { TSX_LOADER } from '../shared/support/tsx-loader.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'kit-launch-'));
beforeAll(() => ensureBuilt(['node', 'renderer']), BUILD_TIMEOUT_MS);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Whether `pid` is a live (non-zombie) process, read from /proc. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Live processes in process group `pgid` (from /proc). */
const groupMembers = (pgid: number): number[] =>
  listProcesses()
    .filter((p) => p.pgid === pgid && p.state !== 'Z')
    .map((p) => p.pid);

describe('launchHeadless', { timeout: 240_000 }, () => {
  it('starts two Switchboards on their own folders and ports, and stops both cleanly with nothing left', async () => {
    const apps: HeadlessApp[] = await Promise.all([
      launchHeadless({ dataDir: join(scratch, 'a') }),
      launchHeadless({ dataDir: join(scratch, 'b') }),
    ]);
    try {
      const [a, b] = apps as [HeadlessApp, HeadlessApp];
      expect(a.port).not.toBe(b.port);
      expect(a.token).not.toBe(b.token);
      expect(a.url).toContain(`#token=${a.token}`);
      for (const app of apps) {
        const bridge = createBridge(webSocketTransport(() => ({ port: app.port, token: app.token })));
        expect((await bridge['app.info']({})).dataDir).toBe(app.dataDir);
        await bridge.close();
      }
    } finally {
      const reports = await Promise.all(apps.map((app) => app.stop()));
      expect(reports.map((r) => r.problems)).toEqual([[], []]);
      expect(reports.map((r) => r.exitCode)).toEqual([0, 0]);
    }
    for (const app of apps) {
      expect(alive(app.pid)).toBe(false);
      expect(groupMembers(app.pid)).toEqual([]);
    }
    // Stopping twice gives the same report.
    expect((await apps[0]!.stop()).problems).toEqual([]);
  });

  it('reports a process a server left running after Switchboard quit, and kills it', async () => {
    const pidFile = join(scratch, 'escapee.pid');
    const app = await launchHeadless({ dataDir: join(scratch, 'c') });
    let daemon = 0;
    try {
      const bridge = createBridge(webSocketTransport(() => ({ port: app.port, token: app.token })));
      const connected = bridge.waitFor('servers.status', (s) => s.id === 'escapee' && s.status.state === 'connected', {
        timeoutMs: 90_000,
      });
      const added = await bridge['servers.add']({
        config: {
          id: 'escapee',
          name: 'Escapee',
          transport: {
            type: 'stdio',
            command: process.execPath,
            args: ['--import', TSX_LOADER, join(root, 'test/testing/support/escapee.ts')],
            cwd: root,
            env: { ESCAPEE_PID_FILE: pidFile, ESCAPEE_LIFETIME_MS: '120000' },
          },
        },
      });
      await bridge['servers.approve']({ id: 'escapee', fingerprint: added.approval!.fingerprint });
      await connected;
      const deadline = Date.now() + 30_000;
      while (!existsSync(pidFile) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      daemon = Number(readFileSync(pidFile, 'utf8').trim());
      expect(alive(daemon)).toBe(true);
      // Let the launcher's sampler see the daemon while its parent still lives.
      await new Promise((r) => setTimeout(r, 1500));
      await bridge.close();
    } finally {
      const report = await app.stop();
      expect(report.exitCode).toBe(0);
      expect(report.leftovers.map((p) => p.pid)).toContain(daemon);
      expect(report.problems.join('\n')).toMatch(new RegExp(`kept running after it quit \\(now killed\\): .*pid ${daemon}\\b`));
    }
    const deadline = Date.now() + 10_000;
    while (alive(daemon) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(alive(daemon)).toBe(false);
  });
});
