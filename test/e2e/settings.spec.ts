// The Settings view shows where this Switchboard keeps its data and its log (as the core reports them), how secrets
// are kept, and passes an accessibility check; its deep link works. Server processes an earlier run left behind are
// listed by command line and ended after a confirmation.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processStartToken } from '../../electron/core/storage/data-lock';
import { startHeadless, tempDataDir } from './support/headless-host';

test('shows the data folder, the log file and the credential store, accessibly', async ({ page }) => {
  const dataDir = tempDataDir();
  const host = await startHeadless(dataDir);
  try {
    await page.goto(host.url);
    await page.getByRole('link', { name: 'Settings' }).click();
    await expect(page).toHaveURL(/#\/settings$/);
    const view = page.getByTestId('settings-view');
    await expect(view.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    await expect(view.getByText(dataDir, { exact: true })).toBeVisible();
    await expect(view.getByText(join(dataDir, 'logs', 'switchboard.log'), { exact: true })).toBeVisible();
    await expect(view.getByRole('button', { name: 'Copy the log file path' })).toBeVisible();
    await expect(view.getByText('Memory only')).toBeVisible();
    await expect(view.getByText('Headless, in this browser')).toBeVisible();
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const axe = await new AxeBuilder({ page }).include('[data-testid="settings-view"]').analyze();
      const found = axe.violations.map(
        (v) => `${colorScheme} ${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary ?? ''}`).join(' | ')}`,
      );
      expect(found).toEqual([]);
    }
  } finally {
    await host.stop();
  }
});

test('lists server processes from an earlier run by command line and ends them after a confirmation', async ({ page }) => {
  const dataDir = tempDataDir();
  // A process in a group of its own, recorded as a server the previous run started (as a crash leaves it).
  const leftover = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)', '--', 'leftover-marker'], {
    detached: true,
    stdio: 'ignore',
  });
  await new Promise((r) => leftover.once('spawn', r));
  const pid = leftover.pid!;
  const exited = new Promise((r) => leftover.once('exit', r));
  writeFileSync(
    join(dataDir, 'processes.json'),
    JSON.stringify({
      groups: [
        {
          pgid: pid,
          pid,
          serverId: 'files',
          command: 'npx -y @modelcontextprotocol/server-filesystem /home/me/projects',
          startedAt: new Date().toISOString(),
          startTicks: processStartToken(pid),
          bootId: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(),
        },
      ],
    }),
  );
  const host = await startHeadless(dataDir);
  try {
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto(host.url);
    await page.getByRole('link', { name: 'Settings' }).click();
    const section = page.getByTestId('leftover-processes');
    await expect(section.getByRole('heading', { name: 'Processes from an earlier run' })).toBeVisible();
    await expect(section.getByText('npx -y @modelcontextprotocol/server-filesystem /home/me/projects')).toBeVisible();
    const axe = await new AxeBuilder({ page }).include('[data-testid="leftover-processes"]').analyze();
    expect(axe.violations.map((v) => v.id)).toEqual([]);
    await page.screenshot({ path: test.info().outputPath('leftovers-1400.png'), fullPage: true });
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.screenshot({ path: test.info().outputPath('leftovers-1024.png'), fullPage: true });

    await section.getByRole('button', { name: 'End them' }).click();
    const dialog = page.getByRole('dialog', { name: 'End the processes from an earlier run?' });
    await expect(dialog).toBeVisible();
    await page.waitForTimeout(400); // the dialog's entry transition, for a sharp screenshot only
    await page.screenshot({ path: test.info().outputPath('leftovers-confirm.png') });
    await dialog.getByRole('button', { name: 'End them' }).click();
    await exited;
    await expect(section).toHaveCount(0);
    expect(leftover.signalCode).toBe('SIGTERM');
  } finally {
    if (leftover.exitCode === null && leftover.signalCode === null) process.kill(-pid, 'SIGKILL');
    await host.stop();
  }
});
