// Issue 3 end to end: approve a stdio server, see it connect, kill its process, see the
// status change, reconnect.
import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { startHeadless, tempDataDir } from './support/headless-host';

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
    await page.getByRole('button', { name: 'Add your first server' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add server' });
    await dialog.getByLabel('Name').fill('Echo fixture');
    await dialog.getByLabel('Id').fill('echo');
    await dialog.getByLabel('Command').fill(process.execPath);
    await dialog.getByLabel('Arguments').fill(['--import', 'tsx', fixture, marker].join('\n'));
    await dialog.getByRole('button', { name: 'Add server' }).click();
    await expect(dialog).toBeHidden();

    // Nothing runs before approval; the whole command is shown untruncated.
    const approval = page.getByRole('region', { name: 'Launch approval' });
    await expect(approval).toBeVisible();
    await expect(page.getByTestId('approval-command')).toHaveText(process.execPath);
    await expect(approval.getByRole('list', { name: 'Arguments' })).toContainText(marker);
    expect(pidsWith(marker)).toEqual([]);

    await approval.getByRole('button', { name: 'Approve and allow to run' }).click();
    const header = page.locator('.page-header');
    await expect(header.getByText('Connected')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('protocol-version')).toContainText('2026-07-28');
    await expect(page.getByText('Echo server instructions')).toBeVisible();

    const pids = pidsWith(marker);
    expect(pids.length).toBeGreaterThan(0);
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    await expect(header.getByText(/Disconnected|Failed/)).toBeVisible({ timeout: 15_000 });

    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect(header.getByText('Connected')).toBeVisible({ timeout: 30_000 });
    expect(pidsWith(marker).length).toBeGreaterThan(0);
  } finally {
    await host.stop();
  }
  // The host releases its children during shutdown (close stdin, SIGTERM, SIGKILL the group): none survives.
  await expect.poll(() => pidsWith(marker), { timeout: 15_000 }).toEqual([]);
});
