import { expect, test } from '@playwright/test';
import { startHeadless, tempDataDir } from './support/headless-host';
import { addStdioServer, openAddDialog, serverRow } from './support/ui';

test('adds a stdio and an HTTP server through the dialogs and keeps them across a restart', async ({ page }) => {
  const dataDir = tempDataDir();
  let host = await startHeadless(dataDir);
  try {
    await page.goto(host.url);
    await expect(page.getByRole('heading', { name: 'No servers yet' })).toBeVisible();

    await addStdioServer(page, { name: 'Local tools', id: 'local-tools', command: 'node', args: ['server.js', '--verbose'] });

    const second = await openAddDialog(page);
    await second.getByRole('textbox', { name: 'Name', exact: true }).fill('Remote API');
    await expect(second.getByRole('textbox', { name: 'Id', exact: true })).toHaveValue('remote-api'); // derived from the name
    await second.getByRole('textbox', { name: 'Id', exact: true }).fill('remote');
    await second.getByLabel('Transport').selectOption('http');
    await second.getByRole('textbox', { name: 'URL', exact: true }).fill('http://example.com/mcp');
    await second.getByRole('button', { name: 'Add server' }).click();
    // Plain http to a non-loopback host is refused with a message on the URL field, which gets focus.
    await expect(second.getByText(/Plain http is only allowed/)).toBeVisible();
    await expect(second.getByRole('textbox', { name: 'URL', exact: true })).toBeFocused();
    await second.getByRole('textbox', { name: 'URL', exact: true }).fill('https://example.com/mcp');
    await second.getByRole('button', { name: 'Add server' }).click();
    await expect(second).toBeHidden();

    await expect(serverRow(page, 'Local tools')).toContainText('stdio');
    await expect(serverRow(page, 'Remote API')).toContainText('http');

    await host.stop();
    host = await startHeadless(dataDir);
    await page.goto(host.url);
    await expect(serverRow(page, 'Local tools')).toBeVisible();
    await expect(serverRow(page, 'Remote API')).toBeVisible();
    await serverRow(page, 'Local tools').click();
    await expect(page.getByRole('region', { name: 'Approve this command before it runs' })).toBeVisible();
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
