// Helpers of the MCP Apps specs: the fixture apps server connected, a tool opened and called, the app inside its
// double-iframe sandbox, and the Inspector's rows.
import type { FrameLocator, Page } from '@playwright/test';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Switchboard } from './fixture';
import { openServerTool } from './ui';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** Adds the apps fixture server (id `fx`) through the bridge and connects it. */
export async function addAppsFixture(switchboard: Switchboard): Promise<void> {
  await switchboard.setUpServer({
    id: 'fx',
    name: 'Apps fixture',
    transport: {
      type: 'stdio',
      command: process.execPath,
      args: ['--import', join(root, 'node_modules/tsx/dist/loader.mjs'), join(root, 'test/fixtures/servers/apps-fixture.ts')],
      cwd: root,
    },
    lifecycle: 'initialize',
  });
  await switchboard.bridge['servers.connect']({ id: 'fx' });
}

/** Opens one of the fixture's tools and calls it with `fields`, waiting for its result. */
export async function callFixtureTool(switchboard: Switchboard, tool: string, fields: Record<string, string> = {}): Promise<void> {
  const page = switchboard.page;
  await openServerTool(switchboard, 'fx', `mcp__fx__${tool}`);
  const panel = page.getByRole('region', { name: 'Call tool' });
  for (const [field, value] of Object.entries(fields)) await panel.locator(`#root_${field}`).fill(value);
  await panel.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Call result' }).getByTestId('call-status')).toHaveText('Succeeded', { timeout: 30_000 });
}

/** The app inside the sandbox proxy inside the page (the first app frame, or the one under `scope`). */
export const appFrame = (page: Page, scope = 'iframe.sb-app-frame'): FrameLocator =>
  page.frameLocator(scope).first().frameLocator('iframe');

/** Opens the Inspector and returns the labels of its rows. */
export async function inspectorRows(page: Page): Promise<string[]> {
  const toggle = page.getByRole('button', { name: 'Inspector' });
  if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
  return page
    .getByRole('list', { name: 'App messages' })
    .getByRole('listitem')
    .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
}

/** Screenshots of the viewport at 1400×900 and 1024×700 into `dir` (`name-<width>.png`). */
export async function appShots(page: Page, dir: string, name: string): Promise<void> {
  for (const [width, height] of [
    [1400, 900],
    [1024, 700],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: join(dir, `${name}-${width}.png`) });
  }
  await page.setViewportSize({ width: 1400, height: 900 });
}
