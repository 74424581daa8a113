// Tool calls through the UI against the calls fixture: a generated form with a nested object and an array,
// validation in plain words, the result, the JSON view, history's "Load into form", and a cancel.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './support/fixture';
import { shots } from './support/shots';
import { callResult, openServerTool } from './support/ui';

const root = fileURLToPath(new URL('../..', import.meta.url));

test.describe('tool calls', () => {
  // The calls fixture, added through the dialog, its launch approved, connected.
  test.beforeEach(async ({ switchboard }) => {
    await switchboard.addServer({
      id: 'fx',
      name: 'Calls fixture',
      transport: {
        type: 'stdio',
        command: process.execPath,
        args: ['--import', join(root, 'node_modules/tsx/dist/loader.mjs'), join(root, 'test/fixtures/servers/calls-stdio.ts')],
        cwd: root,
      },
    });
    await switchboard.approve('fx');
    await switchboard.connect('fx');
  });

  test('fills a generated form with a nested object and an array, calls, sees the result, loads it back from history', async ({
    switchboard,
    page,
  }) => {
    const panel = await openServerTool(switchboard, 'fx', 'mcp__fx__form_demo');
    // Validation before anything is sent, in plain words, with focus on the first invalid field.
    await panel.getByRole('button', { name: 'Call', exact: true }).click();
    await expect(panel.getByText('Enter a value for title')).toBeVisible();
    await expect(panel.locator('#root_title')).toBeFocused();
    await shots(page, 'tool-call-form');
    await panel.locator('#root_title').fill('Quarterly report');
    await panel.locator('#root_owner_name').fill('Ada');
    await panel.getByRole('button', { name: /^Add tags item/ }).click();
    await panel.locator('#root_tags_0').fill('finance');
    await panel.getByRole('button', { name: 'Call', exact: true }).click();
    const result = callResult(page);
    await expect(result.getByTestId('call-status')).toHaveText('Succeeded', { timeout: 30_000 });
    await expect(result.getByTestId('result-text')).toContainText('"owner":{"name":"Ada"}');
    await expect(result.getByTestId('result-text')).toContainText('"tags":["finance"]');

    // The raw JSON view is the same value.
    await panel.getByRole('tab', { name: 'JSON' }).click();
    await expect(panel.getByLabel('Arguments (JSON)')).toHaveValue(/"Quarterly report"/);

    // History: "Load into form" opens the tool with the same arguments.
    await switchboard.goto('#/history');
    const table = page.getByRole('table', { name: 'Recent calls' });
    await expect(table.getByRole('row').nth(1)).toContainText('form_demo');
    await table
      .getByRole('button', { name: /^Actions for form_demo/ })
      .first()
      .click();
    await page.getByRole('menuitem', { name: 'Load into form' }).click();
    await expect(page).toHaveURL(/#\/servers\/fx\/tools\/mcp__fx__form_demo$/);
    const again = page.getByRole('region', { name: 'Call tool' });
    await expect(again.locator('#root_title')).toHaveValue('Quarterly report');
    await expect(again.locator('#root_tags_0')).toHaveValue('finance');
  });

  test('cancels a slow call: "Cancelled by you"', async ({ switchboard, page }) => {
    const panel = await openServerTool(switchboard, 'fx', 'mcp__fx__slow');
    await panel.locator('#root_ms').fill('30000');
    await panel.locator('#root_steps').fill('30');
    await panel.getByRole('button', { name: 'Call', exact: true }).click();
    await expect(page.getByTestId('progress-message')).toHaveText(/step \d+\/30/, { timeout: 30_000 });
    await page.getByRole('status', { name: 'Call progress' }).getByRole('button', { name: 'Cancel' }).click();
    const result = callResult(page);
    await expect(result.getByTestId('call-status')).toHaveText('Cancelled by you');
    await expect(result).not.toContainText('The tool reported an error');
    await expect(page.getByTestId('announcer')).toHaveText('Call finished: Cancelled by you');
  });
});
