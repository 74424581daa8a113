// Issue 16 end to end, against the fixture registry on 127.0.0.1:
// - install from the registry: search, pick, fill the env form (the secret goes to the credential store and never to
//   the settings file or the page), approve the exact launch, connect to a real stdio server (the fixture entry's npm
//   identifier @modelcontextprotocol/server-everything is mapped to the copy in node_modules through the test-only
//   SWITCHBOARD_TEST_LOCAL_PACKAGES setting, so nothing is fetched from npm);
// - an install link that differs from an existing server: preview with the differences, no overwrite without
//   confirmation; a link carrying a javascript: URL is refused;
// - the connection doctor's walk in the Add dialog: the exact command is shown and runs once only when approved;
// - device sign-in against the test authorization server's device endpoint.
import type { Page } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startWorld, type World } from '../fixtures/auth/oauth-world';
import { EVERYTHING_ENTRY } from '../fixtures/registry/entries';
import { startFixtureRegistry, type FixtureRegistry } from '../fixtures/registry/registry-server';
import { dataFileTexts } from '../shared/support/data-files';
import { expect, test as base } from './support/fixture';

const root = fileURLToPath(new URL('../..', import.meta.url));
const everythingBin = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const echoFixture = join(root, 'test/fixtures/servers/echo-stdio.ts');

/** Every file in the data folder, as one text. */
const filesText = (dir: string): string => dataFileTexts(dir).join('\n');

const test = base.extend<{ registry: FixtureRegistry }>({
  // The fixture registry: up before Switchboard starts, closed after it stopped.
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from its parameter list
  registry: async ({}, use) => {
    const registry = await startFixtureRegistry();
    try {
      await use(registry);
    } finally {
      await registry.close();
    }
  },
  // The data folder's only registry source is the fixture (so the official registry is never contacted).
  switchboardDataDir: async ({ switchboardDataDir, registry }, use) => {
    writeFileSync(join(switchboardDataDir, 'registry-sources.json'), JSON.stringify({ v: 1, sources: [registry.url] }));
    await use(switchboardDataDir);
  },
});

async function openBrowse(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Browse' }).click();
  await expect(page.getByRole('heading', { name: 'Browse servers' })).toBeVisible();
}

test.describe(() => {
  test.use({
    switchboardEnv: {
      SWITCHBOARD_TEST_LOCAL_PACKAGES: JSON.stringify({
        '@modelcontextprotocol/server-everything': { command: process.execPath, args: [everythingBin] },
      }),
    },
  });

  test('installs from the registry: search, fill the form, approve, connect; the secret stays in the credential store', async ({
    switchboard,
    registry,
    page,
  }) => {
    const dataDir = switchboard.dataDir;
    await openBrowse(page);
    // The first page lists fixture entries, with statuses and what can run here.
    const everything = page.getByRole('article', { name: 'Everything (fixture)' });
    await expect(everything).toBeVisible();
    await expect(page.getByRole('article', { name: 'Removed' }).getByText('Deleted', { exact: true })).toBeVisible();
    await expect(page.getByRole('article', { name: 'Removed' }).getByRole('button', { name: 'Install Removed' })).toBeDisabled();

    // Search as you type.
    await page.getByRole('searchbox', { name: 'Search' }).fill('everything');
    await expect(page.getByRole('status').filter({ hasText: /1 server on page 1 for “everything”/ })).toBeVisible();
    await expect(page).toHaveURL(/#\/browse\?q=everything/);
    await expect(everything.getByText(EVERYTHING_ENTRY)).toBeVisible();
    await expect(everything.getByRole('link', { name: 'Repository' })).toHaveAttribute(
      'href',
      'https://github.com/modelcontextprotocol/servers',
    );

    await everything.getByRole('button', { name: 'Install Everything (fixture)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Install Everything (fixture)' });
    await expect(dialog.getByLabel('EVERYTHING_API_KEY')).toHaveAttribute('type', 'password');
    await expect(dialog.getByRole('button', { name: 'Install' })).toBeDisabled();
    await expect(dialog.getByText('Still to fill in: EVERYTHING_API_KEY')).toBeVisible();
    // The exact launch: the local program, each argument on its own line, the env names (the secret marked).
    await expect(dialog.getByTestId('launch-command')).toHaveText(process.execPath);
    await expect(dialog.getByTestId('launch-args').getByRole('listitem')).toHaveText([everythingBin, 'stdio']);
    await expect(dialog.getByTestId('launch-env')).toContainText('EVERYTHING_API_KEY (secret)');
    await dialog.getByLabel('EVERYTHING_API_KEY').fill('CANARY_registry_secret_e2e');
    await dialog.getByRole('combobox', { name: 'EVERYTHING_LOG_LEVEL' }).click();
    await page.getByRole('option', { name: 'debug' }).click();
    if (process.env['SHOTS_DIR']) await page.screenshot({ path: `${process.env['SHOTS_DIR']}/install-1400.png` });
    await dialog.getByRole('button', { name: 'Install' }).click();
    await expect(dialog).toBeHidden();

    // Installed, not running: the approval panel shows the exact launch first.
    await expect(page).toHaveURL(/#\/servers\/everything-fixture/);
    const approval = page.getByRole('region', { name: 'Approve this command before it runs' });
    await expect(approval).toBeVisible();
    await expect(page.getByTestId('approval-command')).toHaveText(process.execPath);
    await expect(approval.getByRole('list', { name: 'Arguments' }).getByRole('listitem')).toHaveText([everythingBin, 'stdio']);
    await approval.getByRole('button', { name: 'Approve and allow to run' }).click();
    await expect(page.getByTestId('protocol-version')).toBeVisible({ timeout: 60_000 });
    await page.getByRole('tab', { name: 'Tools' }).click();
    await expect(page.getByText('mcp__everything_fixture__get_env')).toBeVisible();

    // The secret is nowhere but the (memory) credential store: not in any file, not in the page.
    expect(filesText(dataDir)).not.toContain('CANARY_registry_secret_e2e');
    expect(await page.content()).not.toContain('CANARY_registry_secret_e2e');
    const installs = JSON.parse(readFileSync(join(dataDir, 'registry-installs.json'), 'utf8')) as { installs: Record<string, unknown> };
    expect(installs.installs['everything-fixture']).toMatchObject({ name: EVERYTHING_ENTRY, version: '2026.8.31', source: registry.url });

    // Back in Browse, the entry says it is installed.
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Browse' }).click();
    await expect(page.getByRole('article', { name: 'Everything (fixture)' }).getByText('Installed as everything-fixture')).toBeVisible();
  });
});

test('an install link that differs from an existing server is previewed and never overwrites it without confirmation; javascript: is refused', async ({
  page,
}) => {
  await openBrowse(page);
  const link = (entry: Record<string, unknown>) =>
    `switchboard://install?name=Notes&config=${Buffer.from(JSON.stringify(entry)).toString('base64url')}`;

  const paste = async (text: string) => {
    await page.getByRole('button', { name: 'Paste a link or definition' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add from a link or definition' });
    await dialog.getByLabel('Link or definition').fill(text);
    await dialog.getByRole('button', { name: 'Preview' }).click();
    return dialog;
  };

  const first = await paste(link({ command: 'node', args: ['notes.js'] }));
  await first.getByRole('button', { name: 'Add server' }).click();
  await expect(first).toBeHidden();
  await expect(page).toHaveURL(/#\/servers\/notes/);
  await expect(page.getByTestId('approval-command')).toHaveText('node');

  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Browse' }).click();
  const second = await paste(link({ command: 'npx', args: ['-y', 'other-notes'], env: { EXTRA: '1' } }));
  const differs = second.getByRole('status').filter({ hasText: 'A server “notes” already exists and differs' });
  await expect(differs).toBeVisible();
  await expect(differs.getByRole('listitem')).toHaveText(['Command: node notes.js → npx -y other-notes', 'Environment: adds EXTRA']);
  await second.getByRole('button', { name: 'Replace notes…' }).click();
  const confirm = second.getByRole('alertdialog', { name: 'Replace “notes”?' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Keep the existing one' }).click();
  await expect(confirm).toBeHidden();
  await second.getByRole('button', { name: 'Add as a new server (notes-2)' }).click();
  await expect(second).toBeHidden();
  await expect(page).toHaveURL(/#\/servers\/notes-2/);
  const list = page.getByRole('list', { name: 'Server list' });
  await expect(list.getByRole('link', { name: /^Notes\b/ })).toHaveCount(2);
  // The first server kept its definition.
  await list
    .getByRole('link', { name: /^Notes\b/ })
    .first()
    .click();
  await expect(page).toHaveURL(/#\/servers\/notes$/);
  await expect(page.getByTestId('approval-command')).toHaveText('node');

  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Browse' }).click();
  const evil = await paste(link({ type: 'http', url: 'javascript:alert(document.cookie)' }));
  await expect(evil.getByRole('alert').filter({ hasText: 'The text carries a javascript: URL and was refused' })).toBeVisible();
  await expect(evil.getByRole('button', { name: /Add/ })).toHaveCount(0);
});

test('the doctor walk in the Add dialog shows the exact command and runs it once only when approved', async ({ page }) => {
  await page.getByRole('button', { name: 'Add your first server' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add server' });
  await dialog.getByLabel('Command').fill('definitely-not-installed-sb');
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  const steps = dialog.getByRole('list', { name: 'Connection steps' });
  await expect(steps.locator('[data-step="command"]')).toHaveAttribute('data-status', 'failed');
  await expect(steps.locator('[data-step="command"]')).toContainText(
    'definitely-not-installed-sb was not found on the PATH the server gets',
  );
  await expect(dialog.getByText('Failed at: Command found')).toBeVisible();

  await dialog.getByLabel('Command').fill(process.execPath);
  await dialog.getByLabel('Arguments').fill(['--import', join(root, 'node_modules/tsx/dist/loader.mjs'), echoFixture].join('\n'));
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  const trial = dialog.getByRole('alertdialog', { name: 'Approve one test run' });
  await expect(trial).toBeVisible();
  await expect(trial.getByTestId('trial-command')).toHaveText(process.execPath);
  await expect(trial.getByRole('list', { name: 'Arguments of the test run' }).getByRole('listitem')).toHaveCount(3);
  await expect(steps.locator('[data-step="spawn"]')).toHaveAttribute('data-status', 'needs-approval');
  await trial.getByRole('button', { name: 'Run this command once' }).click();
  await expect(dialog.getByText('Every step passed')).toBeVisible({ timeout: 60_000 });
  await expect(steps.locator('[data-step="tools"]')).toContainText('tool(s)');
  // Nothing was saved by testing.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('heading', { name: 'No servers yet' })).toBeVisible();
});

test('device sign-in shows the code, and the server connects once it is entered', async ({ page }) => {
  let world: World | undefined;
  try {
    world = await startWorld({ device: { clientId: 'tv-client', interval: 1, expiresIn: 300 } });
    await page.getByRole('button', { name: 'Add your first server' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add server' });
    await dialog.getByLabel('Name').fill('tv');
    await dialog.getByLabel('Id').fill('tv');
    await dialog.getByLabel('Transport').selectOption('http');
    await dialog.getByLabel('URL').fill(world.mcpUrl);
    await dialog.getByRole('button', { name: 'Add server' }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole('tab', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Get a code to enter on another device' }).click();
    const panel = page.getByRole('region', { name: 'Device sign-in' });
    await expect(panel).toBeVisible();
    const code = (await page.getByTestId('device-user-code').textContent()) ?? '';
    expect(code).toMatch(/^[0-9A-F]{4}-[0-9A-F]{4}$/);
    await expect(page.getByTestId('device-page')).toHaveText(`${world.issuer}/device`);
    await expect(panel.getByText(/expires in \d+:\d\d · checking every 1 s/)).toBeVisible();
    // The person enters the code on another device.
    world.as.decideDevice(code, true);
    await expect(page.getByTestId('auth-state')).toContainText('Signed in', { timeout: 30_000 });
    await expect(panel).toBeHidden();
    await page.getByRole('tab', { name: 'Overview' }).click();
    await expect(page.getByTestId('protocol-version')).toBeVisible({ timeout: 30_000 });
  } finally {
    await world?.close();
  }
});
