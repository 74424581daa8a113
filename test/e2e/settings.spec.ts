// The Settings view shows where this Switchboard keeps its data and its log (as the core reports them), how secrets
// are kept, and passes an accessibility check; its deep link works.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { join } from 'node:path';
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
