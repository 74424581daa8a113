// Approve a stdio server, see it connect, kill its process, see the status change, reconnect; and when Switchboard
// quits, the server's process goes with it.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { expect, test as base } from './support/fixture';
import { connectionStatus } from './support/ui';

const fixture = fileURLToPath(new URL('../fixtures/servers/echo-stdio.ts', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));

function pidsWith(marker: string): number[] {
  try {
    return execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

const test = base.extend<{ marker: string }>({
  // A word on the server's command line. Switchboard depends on it (through its data folder), so this teardown runs
  // after Switchboard stopped: the host releases its children during shutdown (close stdin, SIGTERM, SIGKILL the
  // group), and none survives.
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from its parameter list
  marker: async ({}, use) => {
    const marker = `sb-e2e-${randomUUID()}`;
    await use(marker);
    await expect.poll(() => pidsWith(marker), { timeout: 15_000 }).toEqual([]);
  },
  switchboardDataDir: async ({ switchboardDataDir, marker }, use) => {
    expect(marker).not.toBe('');
    await use(switchboardDataDir);
  },
});

test('approve, connect, crash and reconnect a stdio server', async ({ switchboard, page, marker }) => {
  await switchboard.addServer({
    id: 'echo',
    name: 'Echo fixture',
    // Run from the checkout so `--import tsx` resolves (a server without a cwd runs in its own folder).
    transport: { type: 'stdio', command: process.execPath, args: ['--import', 'tsx', fixture, marker], cwd: root },
  });

  // Nothing runs before approval; the whole command is shown untruncated.
  const approval = page.getByRole('region', { name: 'Approve this command before it runs' });
  await expect(approval).toBeVisible();
  await expect(page.getByTestId('approval-command')).toHaveText(process.execPath);
  await expect(approval.getByRole('list', { name: 'Arguments' })).toContainText(marker);
  expect(pidsWith(marker)).toEqual([]);

  await approval.getByRole('button', { name: 'Approve and allow to run' }).click();
  const status = connectionStatus(page);
  await expect(status).toHaveText('Connected', { timeout: 30_000 });
  await expect(page.getByTestId('protocol-version')).toContainText('2026-07-28');
  await expect(page.getByTestId('server-instructions')).toContainText('Echo server instructions');

  const pids = pidsWith(marker);
  expect(pids.length).toBeGreaterThan(0);
  for (const pid of pids) process.kill(pid, 'SIGKILL');
  await expect(status).toHaveText(/Disconnected|Failed/, { timeout: 15_000 });

  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(status).toHaveText('Connected', { timeout: 30_000 });
  expect(pidsWith(marker).length).toBeGreaterThan(0);
});
