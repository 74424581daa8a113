// Keyboard focus follows the work: a skip link is the first tab stop; after Add server focus is on the new server's
// launch approval (not back on the Add button, 22 Tabs away from Approve); after Approve it is on the server's
// tabs (not on <body>); Disconnect and Connect hand focus to the button that replaced them; then a call.
import type { Locator, Page } from '@playwright/test';
import { join } from 'node:path';
import { expect, test } from './support/fixture';
import { fixture, root } from './support/seed';
import { callResult, connectionStatus, serverList } from './support/ui';

test.use({ seed: { servers: [fixture('calls-stdio.ts', 'fx', 'Calls fixture')] } });

const isFocused = (target: Locator): Promise<boolean> =>
  target.evaluate((el) => el === (el.ownerDocument as unknown as { activeElement: unknown }).activeElement);

/** Presses Tab until `target` has focus; returns how many presses it took. */
async function tabTo(page: Page, target: Locator, max = 60): Promise<number> {
  for (let i = 0; i < max; i++) {
    if (await isFocused(target)) return i;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
  return max;
}

test('the first tab stop is a skip link that takes focus past the header to the view', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  await expect(serverList(page).getByText('Connected')).toHaveCount(1, { timeout: 60_000 });
  await page.locator('body').focus();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  // Shown while it has focus, inside the window and above the header.
  await expect(skip).toBeInViewport({ ratio: 1 });
  const before = page.url();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();
  expect(page.url(), 'moving focus is all it does (no route named "main-content")').toBe(before);
  // The next Tab lands inside the view, not in the header's navigation.
  await page.keyboard.press('Tab');
  await expect(page.locator('main :focus')).toHaveCount(1);
});

test('keyboard path: add → approve → connect → call, focus landing on each next action', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1024, height: 700 });
  await expect(serverList(page).getByText('Connected')).toHaveCount(1, { timeout: 60_000 });

  // Add server from the sidebar (its button stays on the page, so focus used to go back to it).
  await tabTo(page, page.getByRole('button', { name: 'Add server', exact: true }));
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Add server' });
  await expect(dialog.getByRole('textbox', { name: 'Name', exact: true })).toBeFocused();
  await page.keyboard.type('Echo');
  await tabTo(page, dialog.getByRole('textbox', { name: 'Command', exact: true }));
  await page.keyboard.type(`${process.execPath} --import tsx ${join(root, 'test/fixtures/servers/echo-stdio.ts')}`);
  await tabTo(page, dialog.getByRole('button', { name: 'Split into command and arguments' }));
  await page.keyboard.press('Enter');
  await tabTo(page, dialog.getByRole('button', { name: 'Add server' }));
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();

  // Focus is on the new server's approval, read from its heading down; Approve is a Tab or two away.
  await expect(page.getByRole('heading', { level: 1, name: 'Echo' })).toBeVisible();
  const approval = page.getByRole('region', { name: 'Approve this command before it runs' });
  await expect(approval.getByRole('heading', { name: 'Approve this command before it runs' })).toBeFocused();
  const approve = approval.getByRole('button', { name: 'Approve and allow to run' });
  expect(await tabTo(page, approve)).toBeLessThanOrEqual(3);
  await page.keyboard.press('Enter');

  // The panel is gone: focus is on the server's selected tab, not on <body>.
  await expect(approval).toBeHidden();
  const overview = page.getByRole('tab', { name: /Overview/ });
  await expect(overview).toBeFocused();
  await expect(connectionStatus(page)).toHaveText('Connected', { timeout: 120_000 });

  // Disconnect hands focus to Connect; Connect (busy while connecting) hands it to Disconnect once connected.
  const actions = page.getByRole('group', { name: 'Server actions' });
  await tabTo(page, actions.getByRole('button', { name: 'Disconnect' }));
  await page.keyboard.press('Enter');
  await expect(connectionStatus(page)).toHaveText('Disconnected');
  await expect(actions.getByRole('button', { name: 'Connect', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(connectionStatus(page)).toHaveText('Connected', { timeout: 120_000 });
  await expect(actions.getByRole('button', { name: 'Disconnect' })).toBeFocused();

  // The call: tabs by arrow keys, the tool list, the form, the result.
  await tabTo(page, overview);
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: /Tools/ })).toBeFocused();
  const rows = page.getByRole('list', { name: 'Server tools' }).getByRole('link');
  await tabTo(page, rows.first());
  const texts = await rows.allTextContents();
  const target = texts.findIndex((t) => /mcp__echo__echo(?!_)/.test(t));
  expect(target, `echo row among ${texts.length}`).toBeGreaterThanOrEqual(0);
  for (let i = 1; i <= target; i++) {
    await page.keyboard.press('ArrowDown');
    await expect(rows.nth(i)).toBeFocused();
  }
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('tool-local-name')).toHaveText('mcp__echo__echo');
  await tabTo(page, page.getByRole('region', { name: 'Call tool' }).getByLabel('text'));
  await page.keyboard.type('by keyboard');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('call-result-area')).toBeFocused();
  await expect(callResult(page).getByTestId('result-text')).toContainText('by keyboard', { timeout: 30_000 });
});
