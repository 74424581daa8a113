// Downloads and sampling from an MCP app in a real browser against the apps fixture: a download asks first (name,
// type, size) and saves the exact bytes as a browser download; declining saves nothing and the app hears it; a
// request over the limit or for a web address is refused with the reason and nobody is asked. An app's sampling
// request is answered by hand in the sampling dialog, marked as the app's, once the person allowed it for the server.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Download, Locator, Page } from '@playwright/test';
import { expect, test } from './support/fixture';
import { addAppsFixture, appFrame, callFixtureTool } from './support/apps';

const root = fileURLToPath(new URL('../..', import.meta.url));
const SHOTS = join(root, 'test-results', 'apps');

/** The page (an open dialog, say) at both sizes, `focus` scrolled into view, in the light and the dark theme (`name-<scheme>-<width>.png`); leaves it light. */
async function viewShots(page: Page, name: string, focus?: Locator): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    const toggle = page.getByRole('button', { name: scheme === 'dark' ? 'Use the dark theme' : 'Use the light theme' });
    // The theme switch sits under the modal's overlay, so it is clicked without the pointer.
    if ((await toggle.count()) > 0) await toggle.dispatchEvent('click');
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
    for (const [width, height] of [
      [1400, 900],
      [1024, 700],
    ] as const) {
      await page.setViewportSize({ width, height });
      await focus?.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, `${name}-${scheme}-${width}.png`) });
    }
  }
  await page.setViewportSize({ width: 1400, height: 900 });
}

test.describe('downloads from an app', () => {
  test.beforeEach(async ({ switchboard }) => {
    test.skip(switchboard.shell === 'electron', 'the desktop app saves through the system save dialog, which a test cannot answer');
  });

  test('a download asks first with name, type and size, then saves the exact bytes', async ({ switchboard, page }) => {
    await addAppsFixture(switchboard);
    await page.setViewportSize({ width: 1400, height: 900 });
    await callFixtureTool(switchboard, 'files_app');
    const app = appFrame(page);
    await expect(app.locator('#log')).toContainText('started: OK (downloadFile yes)', { timeout: 30_000 });
    const downloads: Download[] = [];
    page.on('download', (d) => downloads.push(d));

    await app.getByRole('button', { name: 'Save bytes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save a file from the app?' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('Files app (from Apps fixture) asks to save this file.');
    await expect(dialog).toContainText('Your browser saves it as a download. Nothing is opened.');
    const row = dialog.getByTestId('app-download-files').getByRole('row').nth(1);
    await expect(row).toHaveText(/bytes\.bin\s*application\/octet-stream\s*256 bytes/);
    await viewShots(page, 'download-consent');
    const saved = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Save file' }).click();
    const download = await saved;
    await expect(dialog).toBeHidden();
    expect(download.suggestedFilename()).toBe('bytes.bin');
    const path = await download.path();
    expect([...readFileSync(path)]).toEqual(Array.from({ length: 256 }, (_, i) => i));
    await expect(app.locator('#log')).toContainText('bytes: SAVED');

    // Declined: the app hears it, and nothing is saved (the next download is the only other one).
    await app.getByRole('button', { name: 'Save text' }).click();
    await expect(dialog).toContainText(/report\.csv\s*text\/csv\s*17 bytes/);
    await dialog.getByRole('button', { name: 'Don’t save' }).click();
    await expect(app.locator('#log')).toContainText('text: DECLINED');

    // A link to a resource of the app's own server is read through the core and saved under the link's name.
    await app.getByRole('button', { name: 'Save linked' }).click();
    await expect(dialog).toContainText(/note\.txt\s*text\/plain\s*18 bytes/);
    const linked = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Save file' }).click();
    const note = await linked;
    expect(note.suggestedFilename()).toBe('note.txt');
    expect(readFileSync(await note.path(), 'utf8')).toBe('A note for the app');
    await expect(app.locator('#log')).toContainText('linked: SAVED');
    expect(downloads.map((d) => d.suggestedFilename())).toEqual(['bytes.bin', 'note.txt']);
  });

  test('two files are asked about together and both saved', async ({ switchboard, page }) => {
    await addAppsFixture(switchboard);
    await callFixtureTool(switchboard, 'files_app');
    const app = appFrame(page);
    await expect(app.locator('#log')).toContainText('started: OK', { timeout: 30_000 });
    await app.getByRole('button', { name: 'Save two' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save 2 files from the app?' });
    await expect(dialog.getByTestId('app-download-name')).toHaveText(['report.csv', 'bytes.bin']);
    await expect(dialog).toContainText('273 bytes in all.');
    await viewShots(page, 'download-consent-two');
    const names: string[] = [];
    const both = new Promise<void>((done) =>
      page.on('download', (d) => {
        names.push(d.suggestedFilename());
        if (names.length === 2) done();
      }),
    );
    await dialog.getByRole('button', { name: 'Save 2 files' }).click();
    await both;
    expect(names.sort()).toEqual(['bytes.bin', 'report.csv']);
    await expect(app.locator('#log')).toContainText('two: SAVED');
  });

  test('over the limit, or a web address, is refused with the reason and nobody is asked', async ({ switchboard, page }) => {
    await addAppsFixture(switchboard);
    await callFixtureTool(switchboard, 'files_app');
    const app = appFrame(page);
    await expect(app.locator('#log')).toContainText('started: OK', { timeout: 30_000 });
    await app.getByRole('button', { name: 'Save too big' }).click();
    await expect(app.locator('#log')).toContainText(
      'big: REFUSED (The download is at least 2.5 MiB, over the 2 MiB limit for a download from an app; nothing was saved)',
    );
    await app.getByRole('button', { name: 'Save web link' }).click();
    await expect(app.locator('#log')).toContainText('web: REFUSED (Only embedded content or a resource of the app’s own server');
    // Both were answered without a dialog: the person was never asked.
    await expect(page.getByRole('dialog')).toHaveCount(0);
    // Its resource asked for a dedicated origin and no border: no border, and the Inspector says the origin was not given.
    await expect(page.locator('.sb-app')).not.toHaveAttribute('data-with-border', 'true');
    await page.getByRole('button', { name: 'Inspector' }).click();
    await page.locator('.sb-app-inspector summary', { hasText: 'Sandbox' }).click();
    await expect(page.getByTestId('app-domain')).toContainText('files-app.example.com asked for, not given');
    await viewShots(page, 'inspector-sandbox', page.getByTestId('app-domain'));
  });
});

test.describe('sampling from an app', () => {
  test('an app’s sampling request is answered by hand once allowed for the server, marked as the app’s', async ({ switchboard, page }) => {
    await addAppsFixture(switchboard);
    await page.setViewportSize({ width: 1400, height: 900 });
    await callFixtureTool(switchboard, 'sampler_app');
    let app = appFrame(page);
    await expect(app.locator('#log')).toContainText('started: OK (sampling no)', { timeout: 30_000 });
    await app.getByRole('button', { name: 'Ask for a reply' }).click();
    await expect(app.locator('#log')).toContainText('reply: REFUSED');

    await switchboard.goto('#/servers/fx/apps');
    const allow = page.getByRole('region', { name: 'Apps' }).getByRole('checkbox', { name: 'Ask for model replies' });
    await expect(allow).not.toBeChecked();
    // The box shows the stored grant, so it turns checked once the core has kept it (not at the click itself).
    await allow.click();
    await expect(allow).toBeChecked();
    await viewShots(page, 'server-apps-sampling', allow);

    await callFixtureTool(switchboard, 'sampler_app');
    app = appFrame(page);
    await expect(app.locator('#log')).toContainText('started: OK (sampling yes)', { timeout: 30_000 });
    await app.getByRole('button', { name: 'Ask for a reply' }).click();
    const dialog = page.getByRole('dialog', { name: 'An app of Apps fixture asks for a model reply' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId('sampling-from-app')).toContainText('mcp__fx__sampler_app');
    await expect(dialog.getByTestId('sampling-system')).toHaveText('You pick chart colours.');
    await expect(dialog.getByTestId('sampling-messages')).toContainText('Name a colour for the chart');
    await viewShots(page, 'app-sampling');
    await dialog.getByRole('textbox', { name: 'Your reply' }).fill('Teal');
    await dialog.getByRole('button', { name: 'Send reply' }).click();
    await expect(dialog).toBeHidden();
    await expect(app.locator('#log')).toContainText('reply: OK (switchboard-by-hand: Teal)');
    await expect(app.locator('#reply')).toHaveText('Teal');
  });
});
