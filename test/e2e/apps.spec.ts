// MCP Apps with a real browser engine: the published app servers render in the double-iframe sandbox, their own
// buttons call tools through the bridge and those calls are in the history "from app"; a hostile fixture app tries to
// escape in every way the issue lists and each attempt fails visibly (Inspector) without reaching the bridge.
import AxeBuilder from '@axe-core/playwright';
import type { FrameLocator, Locator, Page } from '@playwright/test';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS } from './playwright.config';
import { expect, test, type Switchboard } from './support/fixture';
import { openServerTool } from './support/ui';

const root = fileURLToPath(new URL('../..', import.meta.url));
const resolve = createRequire(import.meta.url).resolve;
const publishedEntry = (pkg: string): string => join(dirname(resolve(pkg)), 'index.js');
const SHOTS = join(root, 'test-results', 'apps');
/** The position the browser reports (the geolocation app shows it once granted). */
const GEOLOCATION = { latitude: 48.85, longitude: 2.35 };

// Chromium answers "yes" to every camera prompt here, so only the sandbox can be what denies it.
test.use({
  launchOptions: {
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS, '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'],
  },
});

/** Adds approved stdio servers through the bridge and connects them (the add-server dialog has its own specs). */
async function addServers(
  switchboard: Switchboard,
  servers: { id: string; name: string; args: string[]; env?: Record<string, string> }[],
): Promise<void> {
  for (const s of servers) {
    await switchboard.setUpServer({
      id: s.id,
      name: s.name,
      transport: { type: 'stdio', command: process.execPath, args: s.args, cwd: root, ...(s.env ? { env: s.env } : {}) },
      lifecycle: 'initialize',
    });
    await switchboard.bridge['servers.connect']({ id: s.id });
  }
}

/** Scheme, host and port of an address (custom schemes such as the app's have no web origin to compare). */
const originOf = (url: string): string => {
  const u = new URL(url);
  return `${u.protocol}//${u.host}`;
};

/** Opens a tool by its local name (`mcp__<server id>__<tool>`) through its deep link on the server's Tools tab. */
async function openTool(switchboard: Switchboard, name: string): Promise<void> {
  const serverId = /^mcp__(.+?)__/.exec(name)?.[1];
  if (!serverId) throw new Error(`not a local tool name: ${name}`);
  await openServerTool(switchboard, serverId, name);
}

/** Calls the open tool and waits for its result. */
async function call(page: Page, fields: Record<string, string> = {}): Promise<void> {
  const panel = page.getByRole('region', { name: 'Call tool' });
  for (const [field, value] of Object.entries(fields)) await panel.locator(`#root_${field}`).fill(value);
  await panel.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Call result' }).getByTestId('call-status')).toHaveText('Succeeded', { timeout: 30_000 });
}

/** The app inside the sandbox proxy inside the result view. */
const appFrame = (page: Page): FrameLocator => page.frameLocator('iframe.sb-app-frame').frameLocator('iframe');

/**
 * The app's log once a grant reloaded it: waits for the new frames (both delegate `feature`), then reads the log
 * until it shows `expected`. A read that meets the old frame as it goes away is read again, instead of failing the
 * test with "target closed".
 */
async function logAfterGrant(page: Page, feature: string, expected: string): Promise<void> {
  const inner = page.frameLocator('iframe.sb-app-frame').locator('iframe');
  await expect(page.locator('iframe.sb-app-frame')).toHaveAttribute('allow', new RegExp(`\\b${feature}\\b`));
  await expect(inner).toHaveAttribute('allow', new RegExp(`\\b${feature}\\b`));
  await expect
    .poll(
      () =>
        appFrame(page)
          .locator('#log')
          .textContent({ timeout: 2_000 })
          .catch(() => ''),
      { timeout: 30_000 },
    )
    .toContain(expected);
}

/** Opens the Inspector and returns the labels of its rows. */
async function inspectorRows(page: Page): Promise<string[]> {
  const toggle = page.getByRole('button', { name: 'Inspector' });
  if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
  return page
    .getByRole('list', { name: 'App messages' })
    .getByRole('listitem')
    .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
}

/** Calls the fixture's hello tool and waits for its app to start; `said` collects the page's console lines. */
async function startHello(switchboard: Switchboard, page: Page): Promise<{ said: string[]; app: FrameLocator }> {
  const said: string[] = [];
  page.on('console', (m) => said.push(m.text()));
  await openTool(switchboard, 'mcp__fx__hello');
  await call(page, { name: 'Ada' });
  const app = appFrame(page);
  await expect(app.locator('#log')).toContainText('started: OK', { timeout: 30_000 });
  return { said, app };
}

/**
 * What a person sees at 1400×900 and 1024×700: the viewport, scrolled to the app when one is on screen (a full-page
 * capture stretches the window past the app's fixed-height layout and leaves cross-site frames unpainted).
 */
async function shots(page: Page, name: string): Promise<void> {
  for (const [width, height] of [
    [1400, 900],
    [1024, 700],
  ] as const) {
    await page.setViewportSize({ width, height });
    const frame = page.locator('iframe.sb-app-frame');
    if ((await frame.count()) > 0) await frame.first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`) });
  }
  await page.setViewportSize({ width: 1400, height: 900 });
}

test.describe('published MCP App servers', () => {
  test('basic-react renders in the sandbox; its own button calls a tool through the bridge; the call is in history from app', async ({
    switchboard,
    page,
  }) => {
    await addServers(switchboard, [
      { id: 'react', name: 'Basic React', args: [publishedEntry('@modelcontextprotocol/server-basic-react'), '--stdio'] },
    ]);
    await openTool(switchboard, 'mcp__react__get_time');
    await call(page);

    const outer = page.locator('iframe.sb-app-frame');
    await expect(outer).toBeVisible();
    // The proxy is on the sandbox origin, not the renderer's; the app inside it has an opaque origin.
    const src = (await outer.getAttribute('src'))!;
    expect(originOf(src)).not.toBe(originOf(page.url()));
    if (switchboard.shell === 'headless') {
      // Under the other loopback name than the renderer's: another site, so Chromium runs it in another process.
      expect(new URL(src).hostname).toBe('localhost');
      expect(new URL(src).port).not.toBe(String(switchboard.port));
    }
    const inner = page.frameLocator('iframe.sb-app-frame').locator('iframe');
    await expect(inner).toHaveAttribute('sandbox', 'allow-scripts allow-forms');

    const app = appFrame(page);
    await expect(app.getByRole('button', { name: 'Get Server Time' })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('app-status')).toHaveText('running');
    const isoIn = async (): Promise<string | undefined> =>
      /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/.exec((await app.locator('body').textContent()) ?? '')?.[0];
    const shown = await isoIn();
    await app.getByRole('button', { name: 'Get Server Time' }).click();
    // The app shows the server's new answer.
    await expect(async () => {
      const now = await isoIn();
      expect(now).toBeDefined();
      expect(now).not.toBe(shown);
    }).toPass({ timeout: 30_000 });

    const rows = await inspectorRows(page);
    expect(rows.some((r) => r.startsWith('App → Switchboard tools/call request'))).toBe(true);
    expect(rows.some((r) => r.startsWith('Switchboard → App tools/call response'))).toBe(true);
    await shots(page, 'react');

    const entry = await historyRow(page, 'from app');
    await expect(entry).toContainText('mcp__react__get_time');
    await expect(entry).toContainText('From app (');
  });

  test('system-monitor’s app polls its app-only tool, which stays out of the catalog', async ({ switchboard, page }) => {
    await addServers(switchboard, [
      { id: 'monitor', name: 'System Monitor', args: [publishedEntry('@modelcontextprotocol/server-system-monitor'), '--stdio'] },
    ]);
    await openTool(switchboard, 'mcp__monitor__get_system_info');
    await call(page);
    const app = appFrame(page);
    const polls = async (): Promise<number> =>
      (await inspectorRows(page)).filter((r) => r.startsWith('App → Switchboard tools/call request')).length;
    // The app starts polling on its own; its Stop and Start buttons drive the polling through the bridge.
    await app.getByRole('button', { name: 'Stop' }).click({ timeout: 30_000 });
    const stopped = await polls();
    await expect(app.getByText('Stopped', { exact: true })).toBeVisible();
    await app.getByRole('button', { name: 'Start' }).click();
    await expect(async () => expect(await polls()).toBeGreaterThan(stopped)).toPass({ timeout: 60_000 });
    // The app shows the time of its latest poll: each new answer reaches the screen, not only the Inspector.
    const shownAt = async (): Promise<string | undefined> => /\b\d{1,2}:\d{2}:\d{2}\b/.exec(await app.locator('body').innerText())?.[0];
    let first: string | undefined;
    await expect(async () => expect((first = await shownAt())).toBeDefined()).toPass({ timeout: 30_000 });
    await expect(async () => expect(await shownAt()).not.toBe(first)).toPass({ timeout: 30_000 });
    await shots(page, 'monitor');
    const entry = await historyRow(page, 'poll');
    await expect(entry).toContainText('mcp__monitor__poll_system_stats');
    await expect(entry).toContainText('From app (');

    // The server page lists the app and the app-only tool.
    await switchboard.goto('#/servers/monitor/apps');
    const apps = page.getByRole('region', { name: 'Apps' });
    await expect(apps.getByRole('table', { name: 'App-only tools' })).toContainText('mcp__monitor__poll_system_stats');
    await expect(apps.getByRole('table', { name: 'Tools with an app' })).toContainText('ui://system-monitor/mcp-app.html');
    await shots(page, 'server-apps');
  });

  test('basic-vanillajs renders and its button works; the app opens in its own tab too', async ({ switchboard, page, context }) => {
    await addServers(switchboard, [
      { id: 'vanilla', name: 'Basic Vanilla', args: [publishedEntry('@modelcontextprotocol/server-basic-vanillajs'), '--stdio'] },
    ]);
    await openTool(switchboard, 'mcp__vanilla__get_time');
    await call(page);
    const app = appFrame(page);
    await app.getByRole('button', { name: 'Get Server Time' }).click({ timeout: 30_000 });
    await expect(async () => {
      const rows = await inspectorRows(page);
      expect(rows.some((r) => r.startsWith('Switchboard → App tools/call response'))).toBe(true);
    }).toPass({ timeout: 30_000 });

    const [tab] = await Promise.all([context.waitForEvent('page'), page.getByRole('button', { name: 'Open in its own window' }).click()]);
    await expect(tab).toHaveURL(/#\/app\//);
    await expect(tab.getByRole('main', { name: 'App window' })).toBeVisible({ timeout: 30_000 });
    await appFrame(tab).getByRole('button', { name: 'Get Server Time' }).click({ timeout: 30_000 });
    await expect(tab.getByTestId('app-status')).toHaveText('running');
    await tab.screenshot({ path: join(SHOTS, 'own-window-1400.png') });
    await tab.close();
  });
});

/** Runs one attack app and returns its own report lines, after checking none says ESCAPED. */
async function runAttack(switchboard: Switchboard, tool: string, fields: Record<string, string> = {}): Promise<string> {
  const page = switchboard.page;
  await openTool(switchboard, `mcp__fx__${tool}`);
  await call(page, fields);
  const log = appFrame(page).locator('#log');
  await expect(log).toContainText('done: OK', { timeout: 30_000 });
  const text = (await log.textContent()) ?? '';
  expect(text).not.toContain('ESCAPED');
  // Each step's failure is visible in the Inspector as the app's own report.
  const rows = await inspectorRows(page);
  for (const line of text.split('\n').filter((l) => l.includes('BLOCKED'))) {
    expect(
      rows.some((r) => r.includes(line.trim())),
      line,
    ).toBe(true);
  }
  return text;
}

/** Starts the hello app, presses its Open link button and returns the app and the consent dialog (host shown). */
async function askToOpenLink(switchboard: Switchboard): Promise<{ app: FrameLocator; dialog: Locator }> {
  const page = switchboard.page;
  await openTool(switchboard, 'mcp__fx__hello');
  await call(page, { name: 'Ada' });
  const app = appFrame(page);
  await expect(app.locator('#log')).toContainText('started: OK', { timeout: 30_000 });
  await app.getByRole('button', { name: 'Open link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Open a link from the app?' });
  await expect(dialog.getByTestId('app-link-host')).toHaveText('example.com');
  return { app, dialog };
}

/** The hostile fixture's surroundings: a script server and what it was asked for. */
interface Hostile {
  /** Origin of the script server the fixture's CSP declares. */
  scriptOrigin: string;
  /** Paths requested from it. */
  hits: string[];
}

const hostileTest = test.extend<{ hostile: Hostile }>({
  // The apps fixture server, connected, with a script server on 127.0.0.1 whose origin its CSP declares. Afterwards:
  // the page never left Switchboard, and (headless) nothing from inside an app frame ever reached the bridge's
  // origin, and the only WebSocket is the renderer's own.
  hostile: [
    async ({ switchboard, page }, use) => {
      const hits: string[] = [];
      const scripts = createServer((req, res) => {
        hits.push(req.url ?? '');
        res.writeHead(200, { 'Content-Type': 'text/javascript' }).end('window.__loaded = true;');
      });
      await new Promise<void>((r) => scripts.listen(0, '127.0.0.1', r));
      try {
        const scriptOrigin = `http://127.0.0.1:${(scripts.address() as AddressInfo).port}`;
        await addServers(switchboard, [
          {
            id: 'fx',
            name: 'Apps fixture',
            args: ['--import', join(root, 'node_modules/tsx/dist/loader.mjs'), join(root, 'test/fixtures/servers/apps-fixture.ts')],
            env: { APPS_SCRIPT_ORIGIN: scriptOrigin },
          },
        ]);
        await page.setViewportSize({ width: 1400, height: 900 });
        const home = originOf(page.url());
        const frameRequests: string[] = [];
        const sockets: string[] = [];
        if (switchboard.shell === 'headless') {
          page.on('request', (r) => {
            if (r.frame() !== page.mainFrame()) frameRequests.push(r.url());
          });
          page.on('websocket', (ws) => sockets.push(ws.url()));
          // Loaded again, so that the renderer's WebSocket is seen from its start.
          await page.reload();
          await expect(page.getByRole('navigation', { name: 'Views' })).toBeVisible();
        }
        await use({ scriptOrigin, hits });
        expect(originOf(page.url())).toBe(home);
        if (switchboard.shell === 'headless') {
          const bridgePort = `:${switchboard.port}/`;
          expect(frameRequests.filter((u) => u.includes(bridgePort))).toEqual([]);
          expect(sockets.filter((u) => !u.startsWith(`ws://127.0.0.1:${switchboard.port}/bridge`))).toEqual([]);
          expect(sockets).toHaveLength(1);
        }
      } finally {
        scripts.closeAllConnections(); // the page, still open, may hold a keep-alive connection
        await new Promise((r) => scripts.close(r));
      }
    },
    { auto: true },
  ],
});

hostileTest.describe('a hostile app cannot escape', () => {
  // The browser itself would give this page its location: only the sandbox's policy can refuse it.
  hostileTest.use({ geolocation: GEOLOCATION, permissions: ['geolocation'] });

  hostileTest('reading window.parent and window.top properties fails', async ({ switchboard }) => {
    const text = await runAttack(switchboard, 'attack_parent');
    expect(text).toContain('top.document: BLOCKED (SecurityError)');
    expect(text).toContain('parent.parent.location: BLOCKED (SecurityError)');
    expect(text).toContain('frameElement: BLOCKED');
  });

  hostileTest('navigating the top frame fails', async ({ switchboard, page }) => {
    const text = await runAttack(switchboard, 'attack_navigate');
    expect(text).toContain('top.location = …: BLOCKED');
    expect(text).toContain('window.open(_top): BLOCKED');
    await expect(page.getByRole('navigation', { name: 'Views' })).toBeVisible();
  });

  hostileTest('opening a pop-up fails', async ({ switchboard, page }) => {
    const pages = page.context().pages().length;
    const text = await runAttack(switchboard, 'attack_popup');
    expect(text).toContain('window.open: BLOCKED (PopupBlocked)');
    expect(page.context().pages()).toHaveLength(pages);
  });

  hostileTest('fetching the bridge and opening its WebSocket with the real token fails', async ({ switchboard }) => {
    test.skip(switchboard.shell === 'electron', 'the headless bridge (its port and token): the Electron window has none');
    const bridgeHttp = `http://127.0.0.1:${switchboard.port}/`;
    const bridgeWs = `ws://127.0.0.1:${switchboard.port}/bridge?token=${encodeURIComponent(switchboard.token!)}`;
    const text = await runAttack(switchboard, 'attack_bridge', { bridgeHttp, bridgeWs });
    expect(text).toContain('fetch bridge: BLOCKED');
    expect(text).toContain('bridge websocket: BLOCKED');
    expect(text).toContain('token from top hash: BLOCKED (SecurityError)');
    expect(text).toContain('fetch sandbox page: BLOCKED');
  });

  hostileTest('reading cookies, localStorage and sessionStorage (its own and the renderer’s) fails', async ({ switchboard }) => {
    const text = await runAttack(switchboard, 'attack_storage');
    for (const step of ['document.cookie', 'localStorage', 'sessionStorage', 'top.sessionStorage', 'parent.localStorage']) {
      expect(text).toContain(`${step}: BLOCKED (SecurityError)`);
    }
  });

  hostileTest('the app’s document loaded on its own, outside its frame, still has an opaque origin', async ({ switchboard, page }) => {
    test.skip(switchboard.shell === 'electron', 'a tab of its own: the headless sandbox origin');
    await openTool(switchboard, 'mcp__fx__hello');
    await call(page, { name: 'Ada' });
    await expect(appFrame(page).locator('#log')).toContainText('started: OK', { timeout: 30_000 });
    const proxy = (await page.locator('iframe.sb-app-frame').getAttribute('src')) ?? '';
    const inner = (await page.frameLocator('iframe.sb-app-frame').locator('iframe').getAttribute('src')) ?? '';
    const tab = await page.context().newPage();
    try {
      await tab.goto(new URL(inner, proxy).href);
      await expect(tab.getByRole('heading', { name: 'Hello app' })).toBeVisible();
      // Page code as text: this file is type-checked without the DOM library.
      expect(await tab.evaluate('window.origin')).toBe('null');
      const storage = await tab.evaluate('(() => { try { return String(localStorage.length); } catch (e) { return e.name; } })()');
      expect(storage).toBe('SecurityError');
    } finally {
      await tab.close();
    }
  });

  hostileTest(
    'messages posted around the proxy or forging the sandbox are refused, and the forged call never runs',
    async ({ switchboard, page }) => {
      const before = await historyCount(page);
      await runAttack(switchboard, 'attack_forge');
      const rows = await inspectorRows(page);
      expect(rows.filter((r) => r.includes('A message sent around the sandbox proxy was not accepted'))).toHaveLength(2);
      expect(rows.some((r) => r.includes('Sandbox proxy: Dropped ui/notifications/sandbox-resource-ready sent by the app'))).toBe(true);
      // The proxy's own report method cannot be sent by the app, and a log line naming the sandbox is the app's own.
      expect(rows.some((r) => r.includes('Sandbox proxy: Dropped ui/notifications/sandbox-refused sent by the app'))).toBe(true);
      expect(rows.some((r) => r.includes('warning: Forged drop report'))).toBe(true);
      expect(rows.filter((r) => r.includes('Forged reserved report') || r.includes('Sandbox proxy: Forged'))).toEqual([]);
      // The app is still the same one (the forged resource-ready did not replace it).
      await expect(appFrame(page).getByRole('heading', { name: 'Forger' })).toBeVisible();
      await expect.poll(() => historyCount(page), { timeout: 10_000 }).toBe(before + 1);
    },
  );

  hostileTest(
    'a script from a domain not in its CSP is not loaded (and one from a declared domain is)',
    async ({ switchboard, page, hostile }) => {
      const { scriptOrigin, hits } = hostile;
      const text = await runAttack(switchboard, 'attack_script', { scriptUrl: `${scriptOrigin}/attack.js` });
      expect(text).toContain('external script: BLOCKED');
      expect(hits).toEqual([]);
      await openTool(switchboard, 'mcp__fx__declared_script');
      await call(page, { scriptUrl: `${scriptOrigin}/declared.js` });
      await expect(appFrame(page).locator('#log')).toContainText('declared script: OK', { timeout: 30_000 });
      // The host declares what it granted: the checked origin, in hostCapabilities.sandbox.
      await expect(appFrame(page).locator('#log')).toContainText(`sandbox csp: OK (resources ${scriptOrigin})`);
      expect(hits).toEqual(['/declared.js']);
    },
  );

  hostileTest(
    'camera access fails: denied by the sandbox, and an opaque origin gets no camera even once allowed',
    async ({ switchboard, page }) => {
      const text = await runAttack(switchboard, 'attack_camera');
      expect(text).toMatch(/camera: BLOCKED \((NotAllowedError|SecurityError)\)/);
      const prompt = page.getByRole('status', { name: 'The app asks for more access' });
      await expect(prompt).toContainText('camera');
      await expect(prompt).toContainText('Chromium does not give the camera or microphone to a page with an opaque origin');
      await shots(page, 'permission-prompt');
      await prompt.getByRole('button', { name: /Allow for Apps fixture and reload/ }).click();
      // Allowed for this server: the sandbox now delegates the camera, yet the app's opaque origin still gets none.
      await logAfterGrant(page, 'camera', 'camera: BLOCKED (SecurityError)');
      await expect(prompt).toBeHidden();
      // The grant is the server's, shown on its page.
      await switchboard.goto('#/servers/fx/apps');
      await expect(page.getByRole('region', { name: 'Apps' }).getByRole('checkbox', { name: 'Use the camera' })).toBeChecked();
    },
  );

  hostileTest('a requested permission is denied until the person allows it for the server (geolocation)', async ({ switchboard, page }) => {
    test.skip(
      switchboard.shell === 'electron',
      'the browser grants geolocation here (test.use); the app’s own permission handler refuses it',
    );
    const text = await runAttack(switchboard, 'geo_app');
    expect(text).toMatch(/geolocation: BLOCKED \(.*permissions policy/);
    expect(text).toContain('sandbox permissions: OK (none)');
    const prompt = page.getByRole('status', { name: 'The app asks for more access' });
    await expect(prompt).toContainText('location');
    // The app's frames as first shown (its sandbox proxy and the app inside it); the grant reloads it in new ones.
    const firstFrames = page
      .frames()
      .filter((f) => f.url().includes('launch='))
      .flatMap((f) => [f, ...f.childFrames()]);
    expect(firstFrames.length).toBeGreaterThanOrEqual(2);
    await prompt.getByRole('button', { name: /Allow for Apps fixture and reload/ }).click();
    // Chromium forgets the page's emulated position when an out-of-process frame goes away (here the first app
    // frames, once they have wound down), so the new app's request would time out with no position to give. It is
    // set again once they are gone; a request that was in flight times out and the app asks again.
    await expect.poll(() => firstFrames.every((f) => f.isDetached()), { timeout: 15_000 }).toBe(true);
    await page.context().setGeolocation(GEOLOCATION);
    await logAfterGrant(page, 'geolocation', 'geolocation: GRANTED (48.85,2.35)');
    // Once granted, the host declares it to the app (hostCapabilities.sandbox.permissions).
    await expect(appFrame(page).locator('#log')).toContainText('sandbox permissions: OK (geolocation)');
    // The grant is the server's, shown on its page (the camera's, granted in its own test, likewise).
    await switchboard.goto('#/servers/fx/apps');
    const apps = page.getByRole('region', { name: 'Apps' });
    await expect(apps.getByRole('checkbox', { name: 'Know your location' })).toBeChecked();
    await expect(apps.getByRole('checkbox', { name: 'Use the camera' })).not.toBeChecked();
    await expect(apps.getByRole('checkbox', { name: 'Open pop-up windows' })).not.toBeChecked();
  });

  hostileTest(
    'a wrong MIME type, an oversized UI and an unserved ui:// URI each show a clear error in place of the app',
    async ({ switchboard, page }) => {
      for (const [tool, title, message] of [
        ['bad_mime', 'This is not an MCP App', /served with "text\/html", not text\/html;profile=mcp-app/],
        ['too_big', 'The app is too large', /over the 4 MiB app budget/],
        ['not_served', 'The app is not available', /does not serve ui:\/\/apps\/missing\.html/],
      ] as const) {
        await openTool(switchboard, `mcp__fx__${tool}`);
        await call(page);
        const error = page.getByTestId('app-error');
        await expect(error).toContainText(title);
        await expect(error).toContainText(message);
        await expect(page.locator('iframe.sb-app-frame')).toHaveCount(0);
        if (tool === 'too_big') await shots(page, 'app-error');
      }
    },
  );

  hostileTest('a link from the app opens only with consent, through the safe opener', async ({ switchboard, page }) => {
    test.skip(switchboard.shell === 'electron', 'the app opens the system browser; headless mode opens a tab and prints the address');
    await page
      .context()
      .route('https://example.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'stub' }));
    const { app, dialog } = await askToOpenLink(switchboard);
    expect(switchboard.output()).not.toContain('opened: https://example.com/docs?from=app');
    const [opened] = await Promise.all([page.context().waitForEvent('page'), dialog.getByRole('button', { name: 'Open link' }).click()]);
    await expect(opened).toHaveURL('https://example.com/docs?from=app');
    await opened.close();
    await expect(app.locator('#log')).toContainText('link: OK');
    expect(switchboard.output()).toContain('opened: https://example.com/docs?from=app');
  });

  hostileTest('a declined link stays closed; messages and model context show beside the app', async ({ switchboard, page }) => {
    const { app, dialog } = await askToOpenLink(switchboard);
    await shots(page, 'link-consent');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(app.locator('#log')).toContainText('link: DECLINED');
    await expect(dialog).toBeHidden();

    await app.getByRole('button', { name: 'Update context' }).click();
    await app.getByRole('button', { name: 'Send message' }).click();
    const side = page.getByRole('complementary', { name: 'For the model' });
    await expect(side.getByTestId('model-context-text')).toHaveText('The app picked blue');
    await expect(side.getByTestId('app-message-text')).toHaveText('Hello from the app');

    await app.getByRole('button', { name: 'Call model_only' }).click();
    await expect(app.locator('#log')).toContainText('model_only: BLOCKED');
    await app.getByRole('button', { name: 'Call app_echo' }).click();
    await expect(app.locator('#echoed')).toHaveText('echo: echo 1');
    await app.getByRole('button', { name: 'Read note' }).click();
    await expect(app.locator('#log')).toContainText('read: OK (A note for the app)');

    // Size changes resize the frame, within bounds.
    const frame = page.locator('iframe.sb-app-frame');
    const before = (await frame.boundingBox())!.height;
    await app.getByRole('button', { name: 'Grow' }).click();
    await expect(async () => expect((await frame.boundingBox())!.height).toBeGreaterThan(before + 200)).toPass({ timeout: 10_000 });
    expect((await frame.boundingBox())!.height).toBeLessThanOrEqual(1200);

    // The app's region passes an accessibility check (the app's own document is the server's).
    const axe = await new AxeBuilder({ page }).include('[aria-label="App: Hello app"]').exclude('iframe').analyze();
    expect(
      axe.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary ?? ''}`).join('; ')})`),
    ).toEqual([]);
    await shots(page, 'hello');
  });

  // In a fresh launch of its own: on Chromium 156.0.8078.114, after the steps of the test above, the hello app reloads itself
  // when it asks for full screen (its request is never answered); seen on the previous main too, not yet understood.
  hostileTest('the app may ask for full screen; the bar’s button or Escape returns it inline', async ({ switchboard, page }) => {
    const { app } = await startHello(switchboard, page);
    const region = page.getByRole('region', { name: 'App: Hello app' });
    await app.getByRole('button', { name: 'Full screen' }).click();
    await expect(app.locator('#log')).toContainText('display mode: OK (fullscreen)');
    await expect(region).toHaveAttribute('data-fullscreen', 'true');
    await page.screenshot({ path: join(SHOTS, 'fullscreen-1400.png') });
    await region.getByRole('button', { name: 'Leave full screen' }).click();
    await expect(region).not.toHaveAttribute('data-fullscreen', 'true');
    await region.getByRole('button', { name: 'Full screen' }).click();
    await expect(region).toHaveAttribute('data-fullscreen', 'true');
    await page.keyboard.press('Escape');
    await expect(region).not.toHaveAttribute('data-fullscreen', 'true');
  });

  hostileTest(
    'a second link while one waits is declined at once; the app lists its own server’s resources; Close waits for its teardown answer',
    async ({ switchboard, page }) => {
      const { said, app } = await startHello(switchboard, page);
      const log = app.locator('#log');
      await app.getByRole('button', { name: 'Open two links' }).click();
      const dialog = page.getByRole('dialog', { name: 'Open a link from the app?' });
      await expect(dialog.getByTestId('app-link-url')).toContainText('https://example.com/one');
      await expect(log).toContainText('link 2: DECLINED (Another link from this app is already waiting for the person to answer)');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(log).toContainText('link 1: DECLINED');
      await expect(dialog).toBeHidden();

      await app.getByRole('button', { name: 'List resources' }).click();
      await expect(log).toContainText('list: OK (res://apps/notes/{name} | res://apps/note)');

      await page.getByRole('region', { name: 'App: Hello app' }).getByRole('button', { name: 'Close' }).click();
      await expect(page.getByText('The app was closed.')).toBeVisible();
      await expect.poll(() => said).toContain('hello app: teardown answered');
      await expect(page.locator('iframe.sb-app-frame, iframe.sb-app-frame-closing')).toHaveCount(0);
    },
  );

  hostileTest(
    'an app that never answers its teardown is removed after the wait, and its launch is closed',
    async ({ switchboard, page }) => {
      const { said, app } = await startHello(switchboard, page);
      const region = page.getByRole('region', { name: 'App: Hello app' });
      const launchId = (await region.getAttribute('data-launch-id')) ?? '';
      expect(launchId).not.toBe('');
      // While the app runs, its launch reaches its server.
      const read = () =>
        switchboard.bridge['apps.readResource']({ launchId, uri: 'res://apps/note' }).then(
          () => 'read',
          (err: unknown) => (err instanceof Error ? err.message : String(err)),
        );
      expect(await read()).toBe('read');
      await app.getByRole('button', { name: 'Ignore teardown' }).click();
      await expect(app.locator('#log')).toContainText('ignore teardown: OK');

      await region.getByRole('button', { name: 'Close' }).click();
      await expect(page.getByText('The app was closed.')).toBeVisible();
      await expect.poll(() => said).toContain('hello app: teardown asked');
      // The frame does not wait forever: it is removed once the wait is over, and the launch is closed with it.
      await expect(page.locator('iframe.sb-app-frame, iframe.sb-app-frame-closing')).toHaveCount(0, { timeout: 10_000 });
      await expect.poll(read, { timeout: 10_000 }).not.toBe('read');
      expect(await read()).toMatch(/closed|no app launch|not found/i);
      expect(said).not.toContain('hello app: teardown answered');
    },
  );

  hostileTest(
    'leaving the result keeps the app running until it answers its teardown; a changed app-only tool is approved on the server page',
    async ({ switchboard, page }) => {
      const { said, app } = await startHello(switchboard, page);

      // The server changes its app-only tool: the app's calls of it are refused until the person approves.
      await switchboard.bridge['tools.call']({ name: 'mcp__fx__change_app_echo', arguments: {} });
      await expect.poll(async () => (await switchboard.bridge['catalog.tool']({ name: 'mcp__fx__app_echo' })).pin).toBe('changed');
      await app.getByRole('button', { name: 'Call app_echo' }).click();
      await expect(app.locator('#log')).toContainText('app_echo: FAILED (The definition of mcp__fx__app_echo changed');

      // Leaving the result view: the app is asked to wind down and its frame lives, out of sight, until it answers.
      await switchboard.goto('#/servers/fx/apps');
      await expect.poll(() => said).toContain('hello app: teardown asked');
      await expect.poll(() => said).toContain('hello app: teardown answered');
      // Its launch stayed open while it wound down: the read it made on the way out reached its server.
      expect(said).toContain('hello app: read while winding down: OK');
      await expect(page.locator('iframe.sb-app-frame, iframe.sb-app-frame-closing')).toHaveCount(0);

      const apps = page.getByRole('region', { name: 'Apps' });
      const row = apps.getByTestId('app-only-tool').filter({ hasText: 'mcp__fx__app_echo' });
      await expect(row).toHaveAttribute('data-pin', 'changed');
      await expect(row).toContainText('changed');
      const banner = apps.getByRole('alert').filter({ hasText: 'Changed since approved' });
      await expect(banner.getByLabel('description now')).toContainText('Echoes text, changed; only the app may call it.');
      await shots(page, 'server-apps-changed');
      await banner.getByRole('button', { name: 'Approve new definition' }).click();
      await expect(row).toHaveAttribute('data-pin', 'approved');
      await expect(banner).toBeHidden();

      await openTool(switchboard, 'mcp__fx__hello');
      await call(page, { name: 'Ada' });
      await expect(app.locator('#log')).toContainText('started: OK', { timeout: 30_000 });
      await app.getByRole('button', { name: 'Call app_echo' }).click();
      await expect(app.locator('#echoed')).toHaveText('echo: echo 1');
    },
  );
});

/** The newest row of the history's Recent calls table matching a search. */
async function historyRow(page: Page, search: string): Promise<Locator> {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'History' }).click();
  await page.getByLabel('Search history').fill(search);
  const rows = page.getByRole('table', { name: 'Recent calls' }).getByRole('row');
  // Row 0 is the header; the search is applied after a short pause, so wait for a matching first row.
  await expect(rows.nth(1)).toContainText(search === 'from app' ? 'From app' : search, { timeout: 30_000 });
  return rows.nth(1);
}

/** How many calls the history holds (the forged call must not add one). */
async function historyCount(page: Page): Promise<number> {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'History' }).click();
  await page.getByLabel('Search history').fill('');
  const text = (await page.getByTestId('history-total').textContent()) ?? '';
  const n = /^([\d,]+) calls?/.exec(text)?.[1];
  return n ? Number.parseInt(n.replace(/,/g, ''), 10) : 0;
}
