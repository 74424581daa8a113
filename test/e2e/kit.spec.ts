// The kit's fixture itself: a fresh Switchboard per test with its own data folder, the page pointed at it, the
// typed bridge (results and AppError codes), restart on the same data folder.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError, expect, test } from '../../testing/index';

const root = fileURLToPath(new URL('../..', import.meta.url));
const echo = {
  id: 'echo',
  name: 'Echo',
  transport: {
    type: 'stdio' as const,
    command: process.execPath,
    args: ['--import', 'tsx', join(root, 'test/fixtures/servers/echo-stdio.ts')],
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

  // A restart keeps the data folder; the same bridge and page follow the new process.
  await switchboard.restart();
  expect((await bridge['servers.list']({})).map((s) => s.id)).toEqual(['echo']);
  await expect(page.getByRole('navigation', { name: 'Views' })).toBeVisible();
});
