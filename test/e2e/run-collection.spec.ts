// "Run collection…" in the History view, end to end: the saved calls run with the assertions their export writes,
// and a YAML collection file picked from disk runs with one assertion that holds and one that fails; the table shows
// each call and each assertion as held or failed (the checks `switchboard run` makes, from shared/collections).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '../../testing/index';
import { shots } from './support/shots';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('runs the saved calls and a collection file, showing pass and fail per assertion', async ({ switchboard, bridge, page }) => {
  test.setTimeout(180_000);
  const connected = bridge.waitFor('servers.status', (s) => s.id === 'echo' && s.status.state === 'connected', { timeoutMs: 90_000 });
  await switchboard.setUpServer({
    id: 'echo',
    name: 'Echo',
    transport: {
      type: 'stdio',
      command: process.execPath,
      args: ['--import', join(root, 'node_modules/tsx/dist/loader.mjs'), join(root, 'test/fixtures/servers/echo-stdio.ts')],
      cwd: root,
    },
  });
  await connected;
  const echo = await bridge['tools.call']({ name: 'mcp__echo__echo', arguments: { text: 'from the history' } });
  const add = await bridge['tools.call']({ name: 'mcp__echo__add', arguments: { a: 2, b: 3 } });
  expect([echo.status, add.status]).toEqual(['ok', 'ok']);
  await bridge['calls.save']({ callId: echo.callId, name: 'Echo check' });
  await bridge['calls.save']({ callId: add.callId, name: 'Adds up' });

  await page.setViewportSize({ width: 1400, height: 900 });
  await switchboard.goto('#/history');
  await page.getByRole('button', { name: 'Run collection…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Run collection' });
  await expect(dialog.getByText('Saved calls (2)')).toBeVisible();
  await dialog.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(dialog.getByTestId('run-summary')).toHaveText('2 passed, 0 failed, 2 calls');
  const rows = dialog.getByTestId('run-row');
  await expect(rows).toHaveCount(2);
  // Saved calls run newest first, as listed.
  const echoRow = rows.filter({ hasText: 'Echo check' });
  await expect(echoRow).toContainText('Held: status ok');
  await expect(echoRow).toContainText('Held: textContains "from the history"');
  await expect(rows.filter({ hasText: 'Adds up' })).toContainText('Held: textContains "5"');
  await expect(dialog.locator('[data-testid="run-assertion"][data-passed="false"]')).toHaveCount(0);
  await shots(page, 'run-collection-saved');

  // A YAML file from disk: one assertion holds, one fails, and a tool that does not exist is not run.
  const dir = mkdtempSync(join(tmpdir(), 'sb-run-collection-'));
  try {
    const file = join(dir, 'smoke.yaml');
    writeFileSync(
      file,
      [
        'name: Smoke',
        'calls:',
        '  - name: says hello',
        '    tool: mcp__echo__echo',
        '    args: { text: hello }',
        '    expect: { textContains: hello, maxDurationMs: 60000 }',
        '  - name: expects the wrong text',
        '    tool: echo',
        '    server: echo',
        '    args: { text: hello }',
        '    expect: { textContains: goodbye }',
        '  - name: no such tool',
        '    tool: mcp__echo__nothing',
        '',
      ].join('\n'),
    );
    await dialog.getByText('A collection file', { exact: true }).click();
    await expect(dialog.getByRole('radio', { name: 'A collection file' })).toBeChecked();
    const chooser = page.waitForEvent('filechooser');
    await dialog.getByRole('button', { name: 'Pick a collection file…' }).click();
    await (await chooser).setFiles(file);
    await expect(dialog.getByTestId('run-file')).toHaveText('Smoke: 3 calls');
    await dialog.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(dialog.getByTestId('run-summary')).toHaveText('1 passed, 2 failed, 3 calls');
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(0)).toHaveAttribute('data-passed', 'true');
    await expect(rows.nth(1)).toHaveAttribute('data-passed', 'false');
    await expect(rows.nth(1)).toContainText('Held: status ok');
    await expect(rows.nth(1)).toContainText('Failed: textContains "goodbye"');
    await expect(rows.nth(1)).toContainText('text was "hello"');
    await expect(rows.nth(2)).toContainText('Not run: No tool named mcp__echo__nothing');
    await expect(dialog.locator('[data-testid="run-assertion"][data-passed="false"]')).toHaveCount(1);
    await shots(page, 'run-collection-file');

    // A file that is not a collection is refused with the reason, before anything runs.
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ calls: [] }));
    const again = page.waitForEvent('filechooser');
    await dialog.getByRole('button', { name: 'Pick a collection file…' }).click();
    await (await again).setFiles(bad);
    await expect(dialog.getByRole('alert')).toContainText('The collection bad.json is not valid: calls:');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  // The runs' calls are in the History.
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(page.getByTestId('history-total')).toHaveText(/^(\d+) calls/);
  const history = await bridge['calls.history']({ limit: 50 });
  expect(history.entries.filter((e) => e.originalName === 'echo').length).toBeGreaterThanOrEqual(4);
});
