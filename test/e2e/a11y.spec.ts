// Accessibility: axe (WCAG 2.0–2.2 A/AA, best practice and experimental rules) over every main view and dialog finds
// no serious or critical violation, in light and dark; the whole add → approve → connect → call → read result path
// works with the keyboard only; focus returns to the opener after a dialog.
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { join } from 'node:path';
import { expect, test } from './support/fixture';
import { fixture, root } from './support/seed';
import { callResult, connectionStatus, openServerTool, serverList } from './support/ui';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice', 'experimental'];

async function expectNoSeriousViolations(page: Page, where: string): Promise<void> {
  const result = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes.length} × ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    ),
    `axe on ${where}`,
  ).toEqual([]);
}

/** Presses Tab until `target` has focus (a person tabbing through the page). */
async function tabTo(page: Page, target: Locator, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === (el.ownerDocument as unknown as { activeElement: unknown }).activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

test.describe('axe over every view and dialog', () => {
  test.use({ seed: { servers: [fixture('calls-stdio.ts', 'fx', 'Calls fixture'), fixture('res-server.ts', 'res', 'Resource Fixture')] } });

  for (const colorScheme of ['light', 'dark'] as const) {
    test(`${colorScheme}: views and dialogs`, async ({ switchboard, page }) => {
      test.setTimeout(300_000);
      await page.setViewportSize({ width: 1400, height: 900 });
      await page.emulateMedia({ colorScheme });
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme);
      await expect(serverList(page).getByText('Connected')).toHaveCount(2, { timeout: 60_000 });

      await switchboard.goto('#/servers/fx');
      await expect(page.getByRole('region', { name: 'Server information' })).toBeVisible();
      await expectNoSeriousViolations(page, 'server overview');

      const panel = await openServerTool(switchboard, 'fx', 'mcp__fx__read');
      await panel.locator('#root_ms').fill('1');
      await panel.locator('#root_label').fill('axe');
      await panel.getByRole('button', { name: 'Call', exact: true }).click();
      await expect(callResult(page).getByTestId('call-status')).toHaveText('Succeeded', { timeout: 30_000 });
      await expectNoSeriousViolations(page, 'tools tab with a result');
      await panel.getByRole('button', { name: 'Call', exact: true }).focus();
      await panel.locator('#root_label').fill('');
      await panel.getByRole('button', { name: 'Call', exact: true }).click();
      await expect(panel.getByText('Enter a value for label')).toBeVisible();
      await expectNoSeriousViolations(page, 'tools tab with a validation error');

      await switchboard.goto('#/servers/res/resources/res%3A%2F%2Freadme.md');
      await expect(page.getByRole('region', { name: 'Preview' }).getByRole('heading', { name: 'Title' })).toBeVisible({ timeout: 30_000 });
      await expectNoSeriousViolations(page, 'resources tab with a Markdown preview');

      await switchboard.goto('#/servers/res/prompts');
      await page.getByRole('button', { name: /^Code review/ }).click();
      await expectNoSeriousViolations(page, 'prompts tab');

      await switchboard.goto('#/catalog');
      await expect(page.getByTestId('catalog-total')).not.toHaveText('No tools', { timeout: 30_000 });
      await expectNoSeriousViolations(page, 'catalog');

      await switchboard.goto('#/history');
      const table = page.getByRole('table', { name: 'Recent calls' });
      await expect(table).toBeVisible();
      await expectNoSeriousViolations(page, 'history');
      await table.getByRole('link').first().click();
      await expect(page.getByTestId('call-detail')).toBeVisible();
      await expectNoSeriousViolations(page, 'call details dialog');
      await page.keyboard.press('Escape');

      await switchboard.goto('#/servers/fx');
      const dialogs: [string, string][] = [
        ['Add server', 'Add server'],
        ['Import', 'Import servers'],
        ['Export', 'Export servers'],
        ['Edit', 'Edit Calls fixture'],
        ['Remove', 'Remove Calls fixture?'],
      ];
      for (const [button, title] of dialogs) {
        const opener = page.getByRole('button', { name: button, exact: true });
        await opener.click();
        const dialog = page.getByRole('dialog', { name: title });
        await expect(dialog).toBeVisible();
        if (title === 'Add server') {
          await dialog.getByRole('textbox', { name: 'Command', exact: true }).fill('npx -y pkg');
          await dialog.getByRole('button', { name: 'Add server' }).click(); // errors on the fields
        }
        await expectNoSeriousViolations(page, `${title} dialog`);
        await page.keyboard.press('Escape');
        await expect(dialog).toBeHidden();
        await expect(opener).toBeFocused(); // focus returns to the opener
      }
    });
  }
});

test('keyboard only: add → approve → connect → call → read the result', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1024, height: 700 });
  const first = page.getByRole('button', { name: 'Add your first server' });
  await tabTo(page, first);
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
  // Focus lands on the new server's launch approval, its next step.
  await expect(page.getByRole('heading', { name: 'Approve this command before it runs' })).toBeFocused();

  await tabTo(page, page.getByRole('button', { name: 'Approve and allow to run' }));
  await page.keyboard.press('Enter');
  await expect(connectionStatus(page)).toHaveText('Connected', { timeout: 120_000 });
  await expect(page.getByTestId('announcer')).toHaveText('Echo: Connected');

  // Tabs: arrow keys move between them.
  await tabTo(page, page.getByRole('tab', { name: /Overview/ }));
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: /Tools/ })).toBeFocused();
  await expect(page.getByRole('tab', { name: /Tools/ })).toHaveAttribute('aria-selected', 'true');
  // The tool list: Tab into it, arrows between rows, Enter opens one.
  const rows = page.getByRole('list', { name: 'Server tools' }).getByRole('link');
  await tabTo(page, rows.first());
  await page.keyboard.press('ArrowDown');
  await expect(rows.nth(1)).toBeFocused();
  await page.keyboard.press('Home');
  await expect(rows.first()).toBeFocused();
  // Walk down one row at a time (each step waits for the focus to arrive) to the echo tool's row.
  const texts = await rows.allTextContents();
  const target = texts.findIndex((t) => /mcp__echo__echo(?!_)/.test(t));
  expect(target, `echo row among ${texts.length}`).toBeGreaterThanOrEqual(0);
  for (let i = 1; i <= target; i++) {
    await page.keyboard.press('ArrowDown');
    await expect(rows.nth(i)).toBeFocused();
  }
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('tool-local-name')).toHaveText('mcp__echo__echo');
  const text = page.getByRole('region', { name: 'Call tool' }).getByLabel('text');
  await tabTo(page, text);
  await page.keyboard.type('typed with the keyboard');
  await page.keyboard.press('Enter'); // submits the form
  const area = page.getByTestId('call-result-area');
  await expect(area).toBeFocused();
  await expect(callResult(page).getByTestId('result-text')).toContainText('typed with the keyboard', { timeout: 30_000 });
  await expect(callResult(page).getByTestId('call-status')).toBeInViewport();
});
