// The kit's fixture itself: a fresh Switchboard per test with its own data folder, the page pointed at it, the
// typed bridge (results and AppError codes), restart on the same data folder.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError, expect, test } from '../../testing/index';
import { TSX_LOADER } from '../shared/support/tsx-loader';

const root = fileURLToPath(new URL('../..', import.meta.url));
const echo = {
  id: 'echo',
  name: 'Echo',
  transport: {
    type: 'stdio' as const,
    command: process.execPath,
    args: ['--import', TSX_LOADER, join(root, 'test/fixtures/servers/echo-stdio.ts')],
    cwd: root,
  },
};

test('the switchboard fixture: own data folder, page, bridge, restart', async ({ switchboard, page, bridge }, testInfo) => {
  expect(switchboard.dataDir.startsWith(testInfo.outputDir)).toBe(true);
  const info = await bridge['app.info']({});
  expect(info.dataDir).toBe(switchboard.dataDir);
  expect(await bridge.call('servers.list', {})).toEqual([]);
  await expect(page.getByRole('navigation', { name: 'Views' })).toBeVisible();

  const err = await bridge['servers.get']({ id: 'nope' }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe('not_found');

  const connected = bridge.waitFor('servers.status', (s) => s.id === 'echo' && s.status.state === 'connected', { timeoutMs: 60_000 });
  await switchboard.setUpServer(echo);
  await connected;
  const outcome = await bridge['tools.call']({ name: 'mcp__echo__echo', arguments: { text: 'hi' } });
  expect(outcome.presentation.text).toBe('hi');

  // A restart keeps the data folder; the same bridge follows the new process, and `switchboard.page` shows it (the
  // same page in headless mode, the new window in Electron).
  await switchboard.restart();
  expect((await bridge['servers.list']({})).map((s) => s.id)).toEqual(['echo']);
  if (switchboard.shell === 'headless') expect(switchboard.page).toBe(page);
  await expect(switchboard.page.getByRole('navigation', { name: 'Views' })).toBeVisible();
});

test.describe(() => {
  test.use({ viewport: { width: 1024, height: 700 }, colorScheme: 'dark', locale: 'de-DE' });

  test('the page opens with the Playwright context options of the test', async ({ switchboard, page }) => {
    test.skip(switchboard.shell === 'electron', 'context options shape the headless page; the Electron window is the app’s own');
    expect(page.viewportSize()).toEqual({ width: 1024, height: 700 });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    expect(await page.evaluate(() => (globalThis as unknown as { navigator: { language: string } }).navigator.language)).toBe('de-DE');
  });
});
