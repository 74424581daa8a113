// A call's result text can be copied in one click, as the MCP Inspector offers: what lands on the clipboard is the
// text as shown, with control and bidi characters a server sent made visible rather than passed on.
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixture';
import { fixture } from './support/seed';
import { shots } from './support/shots';
import { callResult, openServerTool } from './support/ui';

test.use({ seed: { servers: [fixture('echo-stdio.ts', 'fx', 'Echo fixture')] } });

const readClipboard = (page: Page): Promise<string> =>
  page.evaluate(() =>
    (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText(),
  );

test('Copy text puts the shown result text on the clipboard', async ({ switchboard, page }) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const form = await openServerTool(switchboard, 'fx', 'mcp__fx__echo');
  await form.getByLabel('text').fill('copy me\u202eplease');
  await form.getByLabel('text').press('Enter');
  const result = callResult(page);
  await expect(result.getByTestId('result-text')).toContainText('copy me', { timeout: 30_000 });
  const shown = await result.getByTestId('result-text').innerText();
  const copy = result.getByRole('button', { name: 'Copy text' });
  await copy.click();
  await expect(result.getByRole('button', { name: 'Copied' })).toBeVisible();
  const copied = await readClipboard(page);
  expect(copied).toBe(shown);
  expect(copied).not.toContain('\u202e');
  await shots(page, 'result-copy');
});
