// The headless shell for the fixture: the built headless Switchboard, and a page of the project's browser pointed at
// its address (the token travels in the fragment). A restart keeps the same page, so a test's `page` stays valid.
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { webSocketTransport } from './bridge-client.js';
import { launchHeadless, type HeadlessApp } from './headless-launch.js';
import type { StopReport } from './stop-check.js';
import type { ShellHandle, ShellLaunch } from './shell.js';

/** Starts the headless shell; `browser` gives the worker's browser (launched on first use). */
export async function startHeadlessShell(launch: ShellLaunch, browser: () => Promise<Browser>): Promise<ShellHandle> {
  let app: HeadlessApp = await launchHeadless({ dataDir: launch.dataDir, port: launch.port, env: launch.env });
  let context: BrowserContext | undefined;
  let page: Page;
  try {
    context = await (await browser()).newContext();
    page = await context.newPage();
    await page.goto(app.url);
  } catch (err) {
    await context?.close().catch(() => undefined);
    await app.stop();
    throw err;
  }
  const transport = webSocketTransport(() => ({ port: app.port, token: app.token }));
  let stopped: Promise<StopReport> | undefined;
  return {
    shell: 'headless',
    get page() {
      return page;
    },
    get url() {
      return app.url;
    },
    get port() {
      return app.port;
    },
    get token() {
      return app.token;
    },
    get pid() {
      return app.pid;
    },
    transport,
    output: () => app.output(),
    restart: async () => {
      await transport.close();
      const report = await app.stop();
      if (report.problems.length > 0) throw new Error(`Switchboard did not stop cleanly for the restart:\n${report.problems.join('\n')}`);
      app = await launchHeadless({ dataDir: launch.dataDir, port: launch.port, env: launch.env });
      await page.goto(app.url);
    },
    stop: () =>
      (stopped ??= (async () => {
        await transport.close();
        // The page goes first, so the app never waits on a browser that still holds its bridge open.
        await context?.close().catch(() => undefined);
        return app.stop();
      })()),
  };
}
