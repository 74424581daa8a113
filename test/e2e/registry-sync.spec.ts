// Syncing the cached registry listings from the Browse view, against fixture registries on 127.0.0.1 that list
// deleted entries only when asked (as the official one does): "Never synced" becomes a time, a deleted entry leaves
// the listing shown offline, an installed server whose entry was deprecated is flagged by the sync alone; and "All
// sources" pages through every source with "Load more", each result labelled with its source.
import type { Locator, Page } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SECRET_HEADER_ENTRY } from '../fixtures/registry/entries';
import { startFixtureRegistry, type FixtureRegistry } from '../fixtures/registry/registry-server';
import { expectAccessible } from './support/axe';
import { expect, test as base } from './support/fixture';
import { shots } from './support/shots';

const MEMORY = 'io.github.modelcontextprotocol/memory';

const fixtureRegistry = async (use: (r: FixtureRegistry) => Promise<void>): Promise<void> => {
  const registry = await startFixtureRegistry({ officialDeleted: true });
  try {
    await use(registry);
  } finally {
    await registry.close();
  }
};

const test = base.extend<{ registry: FixtureRegistry; second: FixtureRegistry }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from its parameter list
  registry: async ({}, use) => fixtureRegistry(use),
  // eslint-disable-next-line no-empty-pattern -- as above
  second: async ({}, use) => fixtureRegistry(use),
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

/** Installs "Notes (remote)" from the Browse view with its secret header filled; `check` looks at the dialog first. */
async function installNotes(page: Page, check?: (dialog: Locator) => Promise<void>): Promise<void> {
  await openBrowse(page);
  await page.getByRole('searchbox', { name: 'Search' }).fill('notes-remote');
  await page.getByRole('article', { name: 'Notes (remote)' }).getByRole('button', { name: 'Install Notes (remote)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Install Notes (remote)' });
  await dialog.getByLabel('X-Notes-Key').fill('any-value');
  await check?.(dialog);
  await dialog.getByRole('button', { name: 'Install' }).click();
  await expect(dialog).toBeHidden();
}

test('Sync brings the saved listing up to date: a deleted entry is gone offline, and the time is shown', async ({ page, registry }) => {
  await openBrowse(page);
  await expect(page.locator('[data-last-synced]')).toHaveText('Never synced');
  await page.getByRole('searchbox', { name: 'Search' }).fill('memory');
  await expect(page.getByRole('article', { name: 'Memory' })).toHaveCount(1);

  registry.setStatus(MEMORY, 'deleted', 'Withdrawn');
  await page.getByRole('button', { name: 'Sync', exact: true }).click();
  await expect(page.locator('#registry-sync-outcome')).toHaveText('Synced: 0 entries changed, 1 deleted entry removed');
  await expect(page.locator('[data-last-synced]')).toHaveText(/^Last synced /);
  // Online, the registry no longer lists it (deleted entries are listed only when asked for).
  await expect(page.getByRole('article', { name: 'Memory' })).toHaveCount(0);
  await shots(page, 'browse-synced');

  // Offline, the saved listing (the first page, saved on the first visit) has lost it too.
  await registry.close();
  await page.getByRole('searchbox', { name: 'Search' }).fill('');
  await expect(page.getByRole('status').filter({ hasText: 'Registry unreachable' })).toBeVisible();
  await expect(page.getByRole('article', { name: 'Weather', exact: true })).toBeVisible();
  await expect(page.getByRole('article', { name: 'Memory' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Sync', exact: true }).click();
  await expect(page.locator('#registry-sync-outcome')).toContainText('could not be reached');
  await expect(page.locator('[data-last-synced]')).toHaveText(/^Last synced /);
});

test('a sync flags an installed server whose entry was deprecated, before any update check', async ({ page, registry }) => {
  await installNotes(page);
  await openBrowse(page);

  registry.setStatus(SECRET_HEADER_ENTRY, 'deprecated', 'Moved to notes-2');
  await page.getByRole('button', { name: 'Sync', exact: true }).click();
  const flags = page.locator('[data-flagged]');
  await expect(flags).toContainText('1 installed server no longer active at the registry');
  await expect(flags).toContainText('notes-remote (com.example/notes-remote): deprecated — Moved to notes-2');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expectAccessible(page, '#main-content');
  }
  await page.emulateMedia({ colorScheme: null });
  await shots(page, 'browse-sync-flagged');

  registry.setStatus(SECRET_HEADER_ENTRY, 'active');
  await page.getByRole('button', { name: 'Sync', exact: true }).click();
  await expect(page.locator('#registry-sync-outcome')).toHaveText(/^Synced: 1 entry changed/);
  await expect(flags).toHaveCount(0);
});

test('All sources pages through every source with Load more, each result labelled with its source', async ({ page, registry, second }) => {
  await openBrowse(page);
  const picker = page.getByRole('combobox', { name: 'Registry' });
  await picker.click();
  await page.getByRole('option', { name: 'All sources' }).click();
  const cards = page.locator('article[data-entry]');
  await expect(page.locator('#browse-count')).toHaveText(/^40 servers from 2 sources$/);
  const more = page.getByRole('navigation', { name: 'More results' });
  await expect(more).toContainText('2 sources have more');
  const total = await cards.count();
  await more.getByRole('button', { name: 'Load more' }).click();
  await expect.poll(() => cards.count()).toBeGreaterThan(total);
  await expect(page.locator('#browse-count')).toHaveText(/^\d+ servers from 2 sources$/);
  // Every page of each source loaded: nothing more offered, every entry once per source and labelled.
  await expect(more).toHaveCount(0);
  const labels = await page.locator('[data-entry-source]').evaluateAll((els) => els.map((e) => e.getAttribute('data-entry-source')));
  expect(labels).toHaveLength(await cards.count());
  expect(new Set(labels)).toEqual(new Set([registry.url, second.url]));
  const keys = await cards.evaluateAll((els) =>
    els.map((e) => `${e.querySelector('[data-entry-source]')?.getAttribute('data-entry-source')} ${e.getAttribute('data-entry')}`),
  );
  expect(new Set(keys).size).toBe(keys.length);
  expect(registry.requests.some((r) => r.includes('cursor='))).toBe(true);
  expect(second.requests.some((r) => r.includes('cursor='))).toBe(true);
  await expectAccessible(page, '#main-content');
  await page.getByRole('button', { name: 'Sync all' }).scrollIntoViewIfNeeded();
  await shots(page, 'browse-all-loaded');
});

test('Sync all syncs the sources side by side: one unreachable says so on its own line, the other’s result stays', async ({
  page,
  registry,
  second,
}) => {
  await openBrowse(page);
  const picker = page.getByRole('combobox', { name: 'Registry' });
  await picker.click();
  await page.getByRole('option', { name: 'All sources' }).click();
  await expect(page.locator('#browse-count')).toHaveText(/^40 servers from 2 sources$/);
  registry.setStatus(MEMORY, 'deleted', 'Withdrawn');
  await second.close();
  await page.getByRole('button', { name: 'Sync all' }).click();
  const lines = page.getByRole('list', { name: 'Sync of each source' });
  await expect(lines.locator(`[data-sync-source="${registry.url}"]`)).toContainText('Synced: 0 entries changed, 1 deleted entry removed');
  await expect(lines.locator(`[data-sync-source="${second.url}"]`)).toContainText('could not be reached');
  await expect(lines.locator(`[data-sync-source="${second.url}"]`)).toHaveAttribute('data-sync-state', 'failed');
  await expect(page.locator('#registry-sync-outcome')).toHaveText('1 source failed');
  await expectAccessible(page, '#main-content');
  await shots(page, 'browse-sync-all');
});

const slowFirst = base.extend<{ registry: FixtureRegistry }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from its parameter list
  registry: async ({}, use) => fixtureRegistry(use),
  // The first source never answers: synced one after another, the second would wait for it.
  switchboardDataDir: async ({ switchboardDataDir, registry }, use) => {
    writeFileSync(join(switchboardDataDir, 'registry-sources.json'), JSON.stringify({ v: 1, sources: [registry.slowUrl, registry.url] }));
    await use(switchboardDataDir);
  },
});

slowFirst('Sync all does not wait for a source that never answers before syncing the next', async ({ page, registry }) => {
  await openBrowse(page);
  const picker = page.getByRole('combobox', { name: 'Registry' });
  await picker.click();
  await page.getByRole('option', { name: 'All sources' }).click();
  await page.getByRole('button', { name: 'Sync all' }).click();
  const lines = page.getByRole('list', { name: 'Sync of each source' });
  await expect(lines.locator(`[data-sync-source="${registry.url}"]`)).toHaveAttribute('data-sync-state', 'done');
  await expect(lines.locator(`[data-sync-source="${registry.url}"]`)).toContainText('Up to date: nothing changed at the registry');
  await expect(lines.locator(`[data-sync-source="${registry.slowUrl}"]`)).toHaveAttribute('data-sync-state', 'syncing');
  await expect(lines.locator(`[data-sync-source="${registry.slowUrl}"]`)).toContainText('Syncing…');
  await shots(page, 'browse-sync-all-running');
});

test('an update that needs a new value asks for it, shows what will run, and applies', async ({ page, registry }) => {
  await installNotes(page, async (install) => {
    await expect(install.getByRole('group', { name: 'Values to fill in' }).getByLabel('X-Notes-Region')).toBeVisible();
    await expect(install.getByText('After installing, Switchboard connects to this address.')).toBeVisible();
    await shots(page, 'registry-install-dialog');
  });

  const now = new Date().toISOString();
  registry.publish({
    server: {
      name: SECRET_HEADER_ENTRY,
      title: 'Notes (remote)',
      description: 'Hosted notes that need an API key header',
      version: '2.0.0',
      remotes: [
        {
          type: 'streamable-http',
          url: 'http://127.0.0.1:9/mcp/v2',
          headers: [
            { name: 'X-Notes-Key', description: 'Your notes API key', isRequired: true, isSecret: true },
            { name: 'X-Notes-Team', description: 'Your team', isRequired: true },
          ],
        },
      ],
    },
    _meta: { 'io.modelcontextprotocol.registry/official': { status: 'active', publishedAt: now, updatedAt: now, isLatest: true } },
  });
  await openBrowse(page);
  await page.getByRole('button', { name: 'Check for updates' }).click();
  await expect(page.getByRole('status').filter({ hasText: '1 update available' })).toContainText('1.0.0 → 2.0.0');
  await page.getByRole('button', { name: 'Review update' }).click();
  const dialog = page.getByRole('dialog', { name: /^Update / });
  const needed = dialog.getByRole('group', { name: 'New values' });
  await expect(needed.getByLabel('X-Notes-Team')).toBeVisible();
  await expect(dialog.getByText('What will run')).toBeVisible();
  await expect(dialog.getByText('Your other settings for this server are kept.')).toBeVisible();
  const apply = dialog.getByRole('button', { name: 'Apply update' });
  await expect(apply).toBeDisabled();
  await needed.getByLabel('X-Notes-Team').fill('blue');
  await expect(apply).toBeEnabled();
  await shots(page, 'registry-update-dialog');
  await apply.click();
  await expect(dialog).toBeHidden();
  // The server's page, with the new version's address.
  await expect(page.getByRole('heading', { level: 1, name: 'Notes (remote)' })).toBeVisible();
  await expect(page.getByText('http://127.0.0.1:9/mcp/v2', { exact: true }).first()).toBeVisible();
});
