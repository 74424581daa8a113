// The protocol view in headless mode: the traffic of a call appears with sizes and timing, filters and copy as
// JSON work, and neither a bearer token nor a secret env value — both echoed back by their servers — ever reaches
// the protocol view's DOM or the bridge frames that feed it.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { contractClient, type ContractClient } from './support/contract-client';
import { startHeadless, tempDataDir, type HeadlessHost } from './support/headless-host';

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

async function addEverything(api: ContractClient): Promise<void> {
  await api.call('servers.add', {
    config: {
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
    },
  });
  const detail = await api.call('servers.get', { id: 'ev' });
  await api.call('servers.approve', { id: 'ev', fingerprint: detail.approval!.fingerprint });
}

test('traffic of a call appears with sizes and timing; secrets never reach the protocol view', async ({ page }) => {
  test.setTimeout(240_000);
  let host: HeadlessHost | undefined;
  let echo: ChildProcess | undefined;
  let api: ContractClient | undefined;
  const frames: string[] = [];
  page.on('websocket', (ws) =>
    ws.on('framereceived', (f) => frames.push(typeof f.payload === 'string' ? f.payload : f.payload.toString())),
  );
  try {
    host = await startHeadless(tempDataDir());
    api = await contractClient(host);
    await addEverything(api);
    const web = await startEchoAuth();
    echo = web.child;
    await api.call('servers.add', {
      config: { id: 'web', name: 'Echo auth', transport: { type: 'http', url: web.url }, startup: 'manual' },
    });
    await api.call('auth.setBearer', { id: 'web', token: BEARER_CANARY });

    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto(host.url);
    await page.getByRole('link', { name: 'Protocol' }).click();
    const view = page.getByTestId('protocol-view');
    await expect(view.getByText('No messages yet')).toBeVisible();

    // Calls made by another window of the app: both servers echo their secret back.
    await api.call('servers.connect', { id: 'ev' });
    await api.call('servers.connect', { id: 'web' });
    await api.call('catalog.refresh', {});
    const env = await api.call('tools.call', { name: 'mcp__ev__get_env', arguments: {} });
    expect(env.status).toBe('ok');
    const who = await api.call('tools.call', { name: 'mcp__web__whoami', arguments: {} });
    expect(who.presentation.text).toContain(BEARER_CANARY);
    await api.call('tools.call', { name: 'mcp__ev__echo', arguments: { message: 'hello protocol view' } });

    // The call's request and response, with size and duration.
    await view.getByLabel('Method').fill('tools/call');
    const rows = view.getByTestId('traffic-row');
    await expect(rows).toHaveCount(6);
    const response = rows.filter({ hasText: 'Received' }).filter({ hasText: 'Echo auth' });
    await expect(response.getByTestId('traffic-size')).toHaveText(/^\d+(\.\d)? (B|KB)$/);
    await expect(response.getByTestId('traffic-duration')).toHaveText(/^\d+ ms$|^\d+\.\d+ s$/);
    await response.click();
    const payload = view.getByTestId('traffic-payload');
    await expect(payload).toContainText('You sent: Bearer [redacted]');

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
    const trafficFrames = frames.filter((f) => f.includes('"protocol.traffic"') || f.includes('"payload"'));
    expect(trafficFrames.length).toBeGreaterThan(0);
    for (const secret of [ENV_CANARY, BEARER_CANARY]) {
      expect(dom).not.toContain(secret);
      expect(trafficFrames.filter((f) => !f.includes('"call.finished"')).join('\n')).not.toContain(secret);
    }

    // The server's own Protocol tab shows only its traffic, at a small window too.
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.goto(`${host.url.split('#')[0]}#/servers/web/protocol`);
    const tab = page.getByTestId('protocol-view');
    await expect(tab.getByTestId('traffic-row').first()).toBeVisible();
    await expect(tab.getByTestId('traffic-server')).toHaveCount(0);
    await expect(tab.getByTestId('traffic-count')).toContainText('with Echo auth');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/protocol-tab-1024.png` });
    await expect(tab.getByText(BEARER_CANARY)).toHaveCount(0);

    // Dark theme (following the OS): the all-servers view stays readable.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto(`${host.url.split('#')[0]}#/protocol`);
    await expect(page.getByTestId('traffic-row').first()).toBeVisible();
    await page.getByTestId('traffic-row').last().click();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/protocol-dark-1400.png` });
    await expectAccessible(page, '[data-testid="protocol-view"]');
  } finally {
    api?.close();
    await host?.stop();
    echo?.kill('SIGTERM');
  }
});
