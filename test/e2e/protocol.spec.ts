// The protocol view: the traffic of a call appears with sizes and timing, filters and copy as
// JSON work, and neither a bearer token nor a secret env value — both echoed back by their servers — ever reaches
// the protocol view's DOM or the bridge frames that feed it.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expectAccessible } from './support/axe';
import { recordBridgeFrames } from './support/bridge-frames';
import { expect, test as base } from './support/fixture';

const root = fileURLToPath(new URL('../..', import.meta.url));
const everything = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
const ENV_CANARY = 'CANARY_ENV_5a1f93c2e7';
const BEARER_CANARY = 'CANARY_BEARER_0d7e6b4c18';
const SHOTS = process.env['SHOTS_DIR'];

function startEchoAuth(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', `${root}test/fixtures/servers/echo-auth-http.ts`], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve({ url: (JSON.parse(line) as { url: string }).url, child }));
    child.once('exit', (code) => reject(new Error(`fixture exited with ${String(code)}`)));
  });
}

/** Stops the HTTP fixture and waits until it is gone. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await gone;
}

const test = base.extend<{ echoAuth: { url: string } }>({
  // An HTTP server that echoes the bearer token it gets; it starts before Switchboard and stops after it.
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from its parameter list
  echoAuth: async ({}, use) => {
    const web = await startEchoAuth();
    try {
      await use({ url: web.url });
    } finally {
      await stopChild(web.child);
    }
  },
  switchboardDataDir: async ({ switchboardDataDir, echoAuth }, use) => {
    expect(echoAuth.url).toMatch(/^http:\/\/127\.0\.0\.1:/);
    await use(switchboardDataDir);
  },
});

test('traffic of a call appears with sizes and timing; secrets never reach the protocol view', async ({
  switchboard,
  bridge,
  page,
  echoAuth,
}) => {
  test.setTimeout(240_000);
  // What the core sends the page over the headless bridge (the Electron window's IPC cannot be watched).
  const frames = switchboard.shell === 'headless' ? await recordBridgeFrames(page) : undefined;
  await switchboard.setUpServer({
    id: 'ev',
    name: 'Everything',
    transport: {
      type: 'stdio',
      command: process.execPath,
      args: [everything, 'stdio'],
      env: { SB_TOKEN: { secret: true, value: ENV_CANARY } },
    },
    lifecycle: 'initialize',
    startup: 'manual',
  });
  await bridge.call('servers.add', {
    config: { id: 'web', name: 'Echo auth', transport: { type: 'http', url: echoAuth.url }, startup: 'manual' },
  });
  await bridge.call('auth.setBearer', { id: 'web', token: BEARER_CANARY });

  await page.setViewportSize({ width: 1400, height: 900 });
  await page.getByRole('link', { name: 'Protocol' }).click();
  const view = page.getByTestId('protocol-view');
  await expect(view.getByText('No messages yet')).toBeVisible();

  // Calls made by another window of the app: both servers echo their secret back.
  await bridge.call('servers.connect', { id: 'ev' });
  await bridge.call('servers.connect', { id: 'web' });
  await bridge.call('catalog.refresh', {});
  const env = await bridge.call('tools.call', { name: 'mcp__ev__get_env', arguments: {} });
  expect(env.status).toBe('ok');
  const who = await bridge.call('tools.call', { name: 'mcp__web__whoami', arguments: {} });
  expect(who.presentation.text).toContain(BEARER_CANARY);
  await bridge.call('tools.call', { name: 'mcp__ev__echo', arguments: { message: 'hello protocol view' } });

  // Newest first, each request with its response: three calls are three rows, the last call on top, each row with
  // its response's duration; the detail shows both messages.
  await view.getByLabel('Method').fill('tools/call');
  const rows = view.getByTestId('traffic-row');
  await expect(rows).toHaveCount(3);
  await expect(rows.first().getByTestId('traffic-duration')).toHaveText(/^\d+ ms$|^\d+\.\d+ s$/);
  await rows.first().click();
  const payload = view.getByTestId('traffic-payload');
  await expect(payload).toHaveCount(2);
  await expect(payload.first()).toContainText('"message": "hello protocol view"');
  await expect(payload.last()).toContainText('Echo: hello protocol view');
  await expect(view.getByTestId('traffic-pair')).toHaveText(/^Answered in (\d+ ms|\d+\.\d+ s)$/);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/protocol-pairs-1400.png` });
  // Oldest first: the first call is on top.
  await view.getByTestId('order').getByText('Oldest first').click();
  await rows.first().click();
  await expect(payload.first()).toContainText('"name": "get-env"');
  await view.getByTestId('order').getByText('Newest first').click();

  // One row per message: the call's request and response, with size and duration.
  await view.getByTestId('pair-toggle').click();
  await expect(rows).toHaveCount(6);
  const response = rows.filter({ hasText: 'Received' }).filter({ hasText: 'Echo auth' });
  await expect(response.getByTestId('traffic-size')).toHaveText(/^\d+(\.\d)? (bytes|KiB)$/);
  await expect(response.getByTestId('traffic-duration')).toHaveText(/^\d+ ms$|^\d+\.\d+ s$/);
  await response.click();
  await expect(payload).toContainText('You sent: Bearer [redacted]');
  await expect(view.getByTestId('show-request')).toContainText('Answers request #');

  // Filters: server, direction, text.
  await view.getByLabel('Server', { exact: true }).click();
  await page.getByRole('option', { name: 'Everything', exact: true }).click();
  await view.getByTestId('direction').getByText('Received', { exact: true }).click();
  await expect(rows).toHaveCount(2);
  await view.getByLabel('Search').fill('hello protocol view');
  await expect(rows).toHaveCount(1);
  await rows.first().click();
  await expect(payload).toContainText('Echo: hello protocol view');
  await view.getByLabel('Search').fill('SB_TOKEN');
  await rows.first().click();
  await expect(payload).toContainText('[redacted]');
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/protocol-1400.png` });
  await expectAccessible(page, '[data-testid="protocol-view"]');

  // Copy as JSON puts the selected message on the clipboard as JSON.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await view.getByTestId('copy-entry').click();
  await expect(view.getByTestId('copy-entry')).toHaveText('Copied');
  const copied = JSON.parse(
    await page.evaluate(() =>
      (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText(),
    ),
  ) as Record<string, unknown>;
  expect(copied).toMatchObject({ serverId: 'ev', direction: 'received', kind: 'response', method: 'tools/call' });
  expect(JSON.stringify(copied)).toContain('[redacted]');

  // Neither secret in the DOM nor in any protocol traffic the bridge carried.
  await view.getByLabel('Search').fill('');
  const dom = await page.content();
  for (const secret of [ENV_CANARY, BEARER_CANARY]) expect(dom).not.toContain(secret);
  if (frames) {
    const trafficFrames = frames.filter((f) => f.includes('"protocol.traffic"') || f.includes('"payload"'));
    expect(trafficFrames.length).toBeGreaterThan(0);
    for (const secret of [ENV_CANARY, BEARER_CANARY]) {
      expect(trafficFrames.filter((f) => !f.includes('"call.finished"')).join('\n')).not.toContain(secret);
    }
  }

  // From a response to the request it answers (shown though the filters hide sent messages), and that tool call
  // loads back into its form, arguments filled in, to be run again.
  await view.getByLabel('Search').fill('hello protocol view');
  await rows.first().click();
  await view.getByTestId('show-request').click();
  await expect(payload.first()).toContainText('"message": "hello protocol view"');
  await view.getByRole('button', { name: 'Load into form' }).click();
  await expect(page).toHaveURL(/#\/servers\/ev\/tools\/mcp__ev__echo$/);
  await expect(page.getByRole('region', { name: 'Call tool' }).locator('#root_message')).toHaveValue('hello protocol view');

  // The server's own Protocol tab shows only its traffic, at a small window too.
  await page.setViewportSize({ width: 1024, height: 700 });
  await switchboard.goto('#/servers/web/protocol');
  const tab = page.getByTestId('protocol-view');
  await expect(tab.getByTestId('traffic-row').first()).toBeVisible();
  await expect(tab.getByTestId('traffic-server')).toHaveCount(0);
  await expect(tab.getByTestId('traffic-count')).toContainText('with Echo auth');
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/protocol-tab-1024.png` });
  await expect(tab.getByText(BEARER_CANARY)).toHaveCount(0);

  // Dark theme (following the OS): the all-servers view stays readable.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 1400, height: 900 });
  await switchboard.goto('#/protocol');
  await expect(page.getByTestId('traffic-row').first()).toBeVisible();
  await page.getByTestId('traffic-row').last().click();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/protocol-dark-1400.png` });
  if (SHOTS) {
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.screenshot({ path: `${SHOTS}/protocol-dark-1024.png` });
    await page.setViewportSize({ width: 1400, height: 900 });
  }
  await expectAccessible(page, '[data-testid="protocol-view"]');
});
