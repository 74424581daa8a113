// A first spec: add the echo fixture server as a person would, approve its launch, connect, call a tool through the
// UI and check what is shown. Run: npx playwright test (see docs/testing.md for the config).
import { fileURLToPath } from 'node:url';
import { expect, test } from 'switchboard/testing';

const echoServer = fileURLToPath(new URL('../../test/fixtures/servers/echo-stdio.ts', import.meta.url));

test('calls a tool and sees its result', async ({ switchboard, page }) => {
  await switchboard.addServer({
    id: 'echo',
    name: 'Echo',
    transport: { type: 'stdio', command: process.execPath, args: ['--import', 'tsx', echoServer] },
  });
  await switchboard.approve('echo');
  await switchboard.connect('echo');

  const shown = await switchboard.callTool('mcp__echo__echo', { text: 'hello' });
  expect(shown.status).toBe('ok');
  expect(shown.text).toBe('hello');
  await expect(page.getByTestId('announcer')).toContainText('Call finished: Succeeded');
});
