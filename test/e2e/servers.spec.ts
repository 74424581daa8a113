import { expect, test } from '@playwright/test';
import { startHeadless, tempDataDir } from './support/headless-host';

test('adds a stdio and an HTTP server through the dialogs and keeps them across a restart', async ({ page }) => {
  const dataDir = tempDataDir();
  let host = await startHeadless(dataDir);
  try {
    await page.goto(host.url);
    await expect(page.getByRole('heading', { name: 'No servers yet' })).toBeVisible();

    await page.getByRole('button', { name: 'Add your first server' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add server' });
    await dialog.getByLabel('Name').fill('Local tools');
    await dialog.getByLabel('Id').fill('local-tools');
    await dialog.getByLabel('Command').fill('node');
    await dialog.getByLabel('Arguments').fill('server.js\n--verbose');
    await dialog.getByRole('button', { name: 'Add server' }).click();
    await expect(dialog).toBeHidden();

    await page.getByRole('button', { name: 'Add server' }).first().click();
    const second = page.getByRole('dialog', { name: 'Add server' });
    await second.getByLabel('Name').fill('Remote API');
    await second.getByLabel('Id').fill('remote');
    await second.getByLabel('Transport').selectOption('http');
    await second.getByLabel('URL').fill('http://example.com/mcp');
    await second.getByRole('button', { name: 'Add server' }).click();
    // Plain http to a non-loopback host is refused with a message on the URL field.
    await expect(second.getByText(/Plain http is only allowed/)).toBeVisible();
    await second.getByLabel('URL').fill('https://example.com/mcp');
    await second.getByRole('button', { name: 'Add server' }).click();
    await expect(second).toBeHidden();

    const list = page.getByRole('list', { name: 'Server list' });
    await expect(list.getByRole('button', { name: 'Local tools (stdio)' })).toBeVisible();
    await expect(list.getByRole('button', { name: 'Remote API (http)' })).toBeVisible();

    await host.stop();
    host = await startHeadless(dataDir);
    await page.goto(host.url);
    await expect(list.getByRole('button', { name: 'Local tools (stdio)' })).toBeVisible();
    await expect(list.getByRole('button', { name: 'Remote API (http)' })).toBeVisible();
    await list.getByRole('button', { name: 'Local tools (stdio)' }).click();
    await expect(page.getByRole('region', { name: 'Launch approval' })).toBeVisible();
    await expect(page.getByTestId('approval-command')).toHaveText('node');
  } finally {
    await host.stop();
  }
});

test('refuses to open without the token', async ({ page }) => {
  const host = await startHeadless(tempDataDir());
  try {
    await page.goto(`http://127.0.0.1:${host.port}/`);
    await expect(page.getByRole('heading', { name: 'Switchboard cannot start' })).toBeVisible();
  } finally {
    await host.stop();
  }
});
