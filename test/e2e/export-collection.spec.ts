// "Export as collection", end to end: a saved call made in a running Switchboard is exported from the History view
// and the downloaded file is a collection `switchboard run` reads, with the call's server, tool and arguments.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CollectionSchema } from '../../electron/cli/collection/collection-file';
import { expect, test } from '../../testing/index';

const root = fileURLToPath(new URL('../..', import.meta.url));
const SHOTS = process.env['SHOTS_DIR'];

test('a saved call exported as a collection from the History view', async ({ switchboard, bridge, page }) => {
  test.setTimeout(180_000);
  const connected = bridge.waitFor('servers.status', (s) => s.id === 'echo' && s.status.state === 'connected', { timeoutMs: 90_000 });
  await switchboard.setUpServer({
    id: 'echo',
    name: 'Echo',
    transport: {
      type: 'stdio',
      command: process.execPath,
      args: ['--import', join(root, 'node_modules/tsx/dist/loader.mjs'), join(root, 'test/fixtures/servers/echo-stdio.ts')],
      cwd: root,
    },
  });
  await connected;
  const echo = await bridge['tools.call']({ name: 'mcp__echo__echo', arguments: { text: 'from the history' } });
  expect(echo.status).toBe('ok');
  await bridge['calls.save']({ callId: echo.callId, name: 'Echo check' });

  await page.setViewportSize({ width: 1400, height: 900 });
  await switchboard.goto('#/history');
  await page.getByRole('button', { name: 'Export as collection…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export as collection' });
  await expect(dialog.getByText('switchboard run FILE')).toBeVisible();
  if (SHOTS) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [width, height] of [
        [1400, 900],
        [1024, 700],
      ] as const) {
        await page.setViewportSize({ width, height });
        await page.screenshot({ path: `${SHOTS}/export-collection-${scheme}-${width}.png` });
      }
    }
  }
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Export collection' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('saved-calls.collection.json');
  const collection = CollectionSchema.parse(JSON.parse(readFileSync((await file.path())!, 'utf8')));
  expect(collection).toEqual({
    name: 'Saved calls',
    calls: [
      {
        name: 'Echo check',
        tool: 'echo',
        server: 'echo',
        args: { text: 'from the history' },
        expect: { status: 'ok', noIsError: true, textContains: 'from the history' },
      },
    ],
  });
  await expect(dialog).toBeHidden();
});
