// Where a stdio server runs, as the person sees it, and the catalog's in-word search: a server added without a
// working directory shows "Runs in <data folder>/server-folders/<id>" on its Overview; searching a piece of a word
// ("umbers") finds the tool whose description holds it ("Add two numbers").
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './support/fixture';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('a server without a cwd runs in its own folder; catalog search matches inside words', async ({ switchboard, page }) => {
  await switchboard.addServer({
    id: 'echo',
    name: 'Echo fixture',
    transport: {
      type: 'stdio',
      command: process.execPath,
      // No cwd: tsx is loaded by its path, since the server runs away from the checkout.
      args: ['--import', join(root, 'node_modules/tsx/dist/loader.mjs'), join(root, 'test/fixtures/servers/echo-stdio.ts')],
    },
  });
  await switchboard.approve('echo');
  await switchboard.connect('echo');
  await expect(page.getByTestId('server-workdir')).toHaveText(/[\\/]server-folders[\\/]echo$/);

  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Catalog' }).click();
  const search = page.getByLabel('Search tools');
  await search.fill('umbers');
  const list = page.getByTestId('tool-list');
  await expect(list.getByRole('link')).toHaveCount(1);
  await expect(list.getByRole('link').first()).toContainText('mcp__echo__add');
});
