// The registry's newer fields end to end, against the fixture registry on 127.0.0.1: status badges with the
// registry's reason (no green check on a deprecated entry), the warning before installing a deprecated entry, a remote
// with a secret header installed with the secret kept out of every file and the page, and the chosen registry
// remembered across visits with one search across all sources.
import type { Page } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFixtureRegistry, type FixtureRegistry } from '../fixtures/registry/registry-server';
import { dataFileTexts } from '../shared/support/data-files';
import { expect, test as base } from './support/fixture';

const test = base.extend<{ registry: FixtureRegistry; second: FixtureRegistry }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from its parameter list
  registry: async ({}, use) => {
    const registry = await startFixtureRegistry();
    try {
      await use(registry);
    } finally {
      await registry.close();
    }
  },
  // eslint-disable-next-line no-empty-pattern -- as above
  second: async ({}, use) => {
    const registry = await startFixtureRegistry();
    try {
      await use(registry);
    } finally {
      await registry.close();
    }
  },
  // Two fixture registries are the only sources (the official registry is never contacted).
  switchboardDataDir: async ({ switchboardDataDir, registry, second }, use) => {
    writeFileSync(join(switchboardDataDir, 'registry-sources.json'), JSON.stringify({ v: 1, sources: [registry.url, second.url] }));
    await use(switchboardDataDir);
  },
});

async function openBrowse(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Browse' }).click();
  await expect(page.getByRole('heading', { name: 'Browse servers' })).toBeVisible();
}

test('a deprecated entry shows its badge and reason without a green check, and warns before installing', async ({ page }) => {
  await openBrowse(page);
  await page.getByRole('searchbox', { name: 'Search' }).fill('old-weather');
  const old = page.getByRole('article', { name: 'Old Weather' });
  await expect(old.getByText('Deprecated', { exact: true })).toBeVisible();
  await expect(old.getByText('Deprecated on 2025-11-25: Use io.github.example/weather-mcp instead')).toBeVisible();
  await expect(old.getByLabel('Can run here, but deprecated')).toBeVisible();
  await expect(old.getByLabel('Can run here', { exact: true })).toHaveCount(0);
  if (process.env['SHOTS_DIR']) await page.screenshot({ path: `${process.env['SHOTS_DIR']}/browse-deprecated.png` });

  await old.getByRole('button', { name: 'Install Old Weather' }).click();
  const dialog = page.getByRole('dialog', { name: 'Install Old Weather' });
  await expect(dialog.getByRole('alert').filter({ hasText: 'This entry is deprecated' })).toContainText(
    'Use io.github.example/weather-mcp instead',
  );
  await expect(dialog.getByRole('button', { name: 'Install anyway' })).toBeEnabled();
  if (process.env['SHOTS_DIR']) await page.screenshot({ path: `${process.env['SHOTS_DIR']}/install-deprecated.png` });

  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('searchbox', { name: 'Search' }).fill('removed');
  const removed = page.getByRole('article', { name: 'Removed' }).first();
  await expect(removed.getByText('Deleted', { exact: true })).toBeVisible();
  await expect(removed.getByRole('button', { name: 'Install Removed' })).toBeDisabled();
});

test('a remote with a secret header installs; the secret is in no file and not on the page', async ({ switchboard, page }) => {
  const secret = 'CANARY_notes_header_e2e';
  await openBrowse(page);
  await page.getByRole('searchbox', { name: 'Search' }).fill('notes-remote');
  const notes = page.getByRole('article', { name: 'Notes (remote)' }).first();
  await notes.getByRole('button', { name: 'Install Notes (remote)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Install Notes (remote)' });
  await expect(dialog.getByLabel('X-Notes-Key')).toHaveAttribute('type', 'password');
  await expect(dialog.getByText('Still to fill in: X-Notes-Key')).toBeVisible();
  await expect(dialog.getByText(/cannot be stored by Switchboard/)).toHaveCount(0);
  await dialog.getByLabel('X-Notes-Key').fill(secret);
  await expect(dialog.getByRole('button', { name: 'Install' })).toBeEnabled();
  if (process.env['SHOTS_DIR']) await page.screenshot({ path: `${process.env['SHOTS_DIR']}/install-secret-header.png` });
  await dialog.getByRole('button', { name: 'Install' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/#\/servers\/notes-remote/);
  expect(dataFileTexts(switchboard.dataDir).join('\n')).not.toContain(secret);
  expect(dataFileTexts(switchboard.dataDir).join('\n')).toContain('X-Notes-Key');
  expect(await page.content()).not.toContain(secret);
});

test('the chosen registry is remembered across visits; All sources labels each result with its source', async ({ page, second }) => {
  await openBrowse(page);
  const picker = page.getByRole('combobox', { name: 'Registry' });
  await picker.click();
  const secondLabel = second.url.replace(/^https?:\/\//, '');
  await page.getByRole('option', { name: secondLabel, exact: true }).click();
  await expect(picker).toHaveValue(secondLabel);

  // Another view and back (the Browse link names no registry): the same registry is searched again.
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Servers' }).click();
  await expect(page).not.toHaveURL(/#\/browse/);
  await openBrowse(page);
  await expect(page).not.toHaveURL(/source=/);
  await expect(picker).toHaveValue(secondLabel);

  await picker.click();
  await page.getByRole('option', { name: 'All sources' }).click();
  await page.getByRole('searchbox', { name: 'Search' }).fill('memory');
  const results = page.getByRole('article', { name: 'Memory' });
  await expect(results).toHaveCount(2);
  await expect(results.nth(0).getByText(/^From /)).toBeVisible();
  const labels = await page.locator('[data-entry-source]').evaluateAll((els) => els.map((e) => e.getAttribute('data-entry-source')));
  expect(new Set(labels).size).toBe(2);
  if (process.env['SHOTS_DIR']) await page.screenshot({ path: `${process.env['SHOTS_DIR']}/browse-all.png` });
});
