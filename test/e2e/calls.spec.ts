import { expect, test, type Page } from '@playwright/test';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHeadless, tempDataDir, type HeadlessHost } from './support/headless-host';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Adds the calls fixture through the dialog and approves its launch. */
async function addFixture(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Add your first server' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add server' });
  await dialog.getByLabel('Name').fill('Calls fixture');
  await dialog.getByLabel('Id').fill('fx');
  await dialog.getByLabel('Command').fill(process.execPath);
  await dialog
    .getByLabel('Arguments')
    .fill(['--import', join(root, 'node_modules/tsx/dist/loader.mjs'), join(root, 'test/fixtures/servers/calls-stdio.ts')].join('\n'));
  await dialog.getByLabel('Working directory').fill(root);
  await dialog.getByRole('button', { name: 'Add server' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('list', { name: 'Server list' }).getByRole('button', { name: 'Calls fixture (stdio)' }).click();
  await page.getByRole('region', { name: 'Launch approval' }).getByRole('button', { name: 'Approve and allow to run' }).click();
  await expect(page.getByRole('list', { name: 'Server list' }).getByText('Connected')).toBeVisible({ timeout: 30_000 });
}

async function openTool(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'History' }).click();
  await page.getByLabel('Tool name').fill(name);
  // The catalog lists the server's tools shortly after it connects: retry until the schema loads.
  await expect(async () => {
    await page.getByRole('button', { name: 'Open tool' }).click();
    await expect(page.getByRole('heading', { name })).toBeVisible({ timeout: 1000 });
    await expect(page.getByText(/schema could not be loaded/)).toBeHidden({ timeout: 1000 });
  }).toPass({ timeout: 30_000 });
}

test.describe('tool calls', () => {
  let host: HeadlessHost;
  test.beforeEach(async ({ page }) => {
    host = await startHeadless(tempDataDir());
    await page.goto(host.url);
    await addFixture(page);
  });
  test.afterEach(async () => host?.stop());

  test('fills a generated form with a nested object and an array, calls, sees the result, replays from history', async ({ page }) => {
    await openTool(page, 'mcp__fx__form_demo');
    const panel = page.getByRole('region', { name: 'Call tool' });
    // Inline validation before anything is sent: the required title is missing.
    await panel.getByRole('button', { name: 'Call' }).click();
    await expect(panel.getByText(/required|must have required property/i).first()).toBeVisible();
    await panel.locator('#root_title').fill('Quarterly report');
    await panel.locator('#root_owner_name').fill('Ada');
    await panel.getByRole('button', { name: /Add/ }).first().click();
    await panel.locator('#root_tags_0').fill('finance');
    await panel.getByRole('button', { name: 'Call' }).click();
    const result = page.getByRole('region', { name: 'Call result' });
    await expect(result.getByTestId('call-status')).toHaveText('Succeeded', { timeout: 30_000 });
    await expect(result.getByTestId('result-text')).toContainText('"owner":{"name":"Ada"}');
    await expect(result.getByTestId('result-text')).toContainText('"tags":["finance"]');

    // The raw JSON view is the same value.
    await panel.getByRole('tab', { name: 'JSON' }).click();
    await expect(panel.getByLabel('Arguments (JSON)')).toHaveValue(/"Quarterly report"/);

    // Replay from history fills the form again.
    await page.getByLabel('Tool name').fill('');
    const entry = page.getByRole('list', { name: 'History entries' }).getByRole('listitem').first();
    await expect(entry).toContainText('mcp__fx__form_demo');
    await entry.getByRole('button', { name: 'Replay' }).click();
    await expect(panel.locator('#root_title')).toHaveValue('Quarterly report');
    await expect(panel.locator('#root_tags_0')).toHaveValue('finance');
  });

  test('cancels a slow call', async ({ page }) => {
    await openTool(page, 'mcp__fx__slow');
    const panel = page.getByRole('region', { name: 'Call tool' });
    await panel.locator('#root_ms').fill('30000');
    await panel.locator('#root_steps').fill('30');
    await panel.getByRole('button', { name: 'Call' }).click();
    await expect(page.getByTestId('progress-message')).toHaveText(/step \d+\/30/, { timeout: 30_000 });
    await page.getByRole('status', { name: 'Call progress' }).getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('region', { name: 'Call result' }).getByTestId('call-status')).toHaveText('Cancelled');
  });
});
