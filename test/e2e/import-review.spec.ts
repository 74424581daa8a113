// Importing several stdio servers: the import's confirmation is in view without scrolling, the imported launches are
// listed together, each in full (command and every argument), with a tick each; one action approves the ticked ones
// and an unticked one still waits for its own approval.
import { join } from 'node:path';
import { TSX_LOADER } from '../shared/support/tsx-loader';
import { expect, test } from './support/fixture';
import { root } from './support/seed';
import { shots } from './support/shots';

const echo = join(root, 'test/fixtures/servers/echo-stdio.ts');

test('imported launches are reviewed and approved together, each listed in full', async ({ switchboard, page }) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  const config = {
    mcpServers: Object.fromEntries(
      ['alpha', 'bravo', 'charlie'].map((name) => [
        name,
        { command: process.execPath, args: ['--import', TSX_LOADER, echo, `--tag=${name}`] },
      ]),
    ),
  };
  await page.getByRole('button', { name: 'Import from another app' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import servers' });
  await dialog.getByLabel('Configuration text').fill(JSON.stringify(config));
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await dialog.getByRole('button', { name: 'Import 3 servers' }).click();

  const confirmation = dialog.getByRole('status').filter({ hasText: 'Imported 3 servers.' });
  await expect(confirmation).toBeInViewport();
  const review = dialog.getByRole('region', { name: 'Review and approve the imported launches' });
  const launches = review.getByRole('article');
  await expect(launches).toHaveCount(3);
  for (const name of ['alpha', 'bravo', 'charlie']) {
    const launch = review.getByRole('article', { name: `Launch of ${name}` });
    await expect(launch.getByTestId('approval-command')).toHaveText(process.execPath);
    const args = launch.getByRole('list', { name: 'Arguments' });
    await expect(args.getByRole('listitem')).toHaveText(['--import', TSX_LOADER, echo, `--tag=${name}`]);
    await expect(launch.getByRole('checkbox', { name: `Approve ${name}` })).toBeChecked();
  }
  await shots(page, 'import-review');

  await review.getByRole('checkbox', { name: 'Approve charlie' }).uncheck();
  await dialog.getByRole('button', { name: 'Approve 2 launches' }).click();
  await expect(review.getByRole('status')).toContainText('Approved 2 launches');
  await expect(launches).toHaveCount(1);
  await expect(review.getByRole('article', { name: 'Launch of charlie' })).toBeVisible();
  await shots(page, 'import-review-approved');

  const list = await switchboard.bridge['servers.list']({});
  const waiting = Object.fromEntries(list.map((s) => [s.name, s.needsApproval]));
  expect(waiting).toEqual({ alpha: false, bravo: false, charlie: true });
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(dialog).toBeHidden();
});
