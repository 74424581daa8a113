// Issue 3 end to end: approve a stdio server, see it connect, kill its process, see the
// status change, reconnect.
import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { startHeadless, tempDataDir } from './support/headless-host';
import { addStdioServer, connectionStatus } from './support/ui';

const fixture = fileURLToPath(new URL('../fixtures/servers/echo-stdio.ts', import.meta.url));

function pidsWith(marker: string): number[] {
  try {
    return execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

test('approve, connect, crash and reconnect a stdio server', async ({ page }) => {
  const host = await startHeadless(tempDataDir());
  const marker = `sb-e2e-${randomUUID()}`;
  try {
    await page.goto(host.url);
    await addStdioServer(page, { name: 'Echo fixture', id: 'echo', command: process.execPath, args: ['--import', 'tsx', fixture, marker] });

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
  } finally {
    await host.stop();
  }
  // The host releases its children during shutdown (close stdin, SIGTERM, SIGKILL the group): none survives.
  await expect.poll(() => pidsWith(marker), { timeout: 15_000 }).toEqual([]);
});
