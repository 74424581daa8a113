// Adding servers through the dialogs, kept across a restart; and headless mode refuses a page without its token.
import { expect, test } from './support/fixture';
import { openAddDialog, serverRow } from './support/ui';

test('adds a stdio and an HTTP server through the dialogs and keeps them across a restart', async ({ switchboard, page }) => {
  await expect(page.getByRole('heading', { name: 'No servers yet' })).toBeVisible();

  await switchboard.addServer({
    id: 'local-tools',
    name: 'Local tools',
    transport: { type: 'stdio', command: 'node', args: ['server.js', '--verbose'] },
  });

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

  await switchboard.restart();
  const after = switchboard.page; // the same page in headless mode, the new window after an Electron restart
  await expect(serverRow(after, 'Local tools')).toBeVisible();
  await expect(serverRow(after, 'Remote API')).toBeVisible();
  await serverRow(after, 'Local tools').click();
  await expect(after.getByRole('region', { name: 'Approve this command before it runs' })).toBeVisible();
  await expect(after.getByTestId('approval-command')).toHaveText('node');
});

test('refuses to open without the token', async ({ switchboard, page }) => {
  test.skip(switchboard.shell === 'electron', 'the headless bridge token: the Electron window talks to its own main process');
  // A fresh browser context: the kit's page already holds the token in its session storage.
  const context = await page.context().browser()!.newContext();
  try {
    const fresh = await context.newPage();
    await fresh.goto(`http://127.0.0.1:${switchboard.port}/`);
    await expect(fresh.getByRole('heading', { name: 'Switchboard cannot start' })).toBeVisible();
  } finally {
    await context.close();
  }
});
