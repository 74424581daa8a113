// MCP App display modes in a real browser: an app asked into picture-in-picture keeps running in the dock while the
// person goes to another view and back, returns inline still running, and is answered with the mode actually set
// (a mode it did not declare is not applied); the dock's Close winds it down.
import type { FrameLocator, Page } from '@playwright/test';
import { expect, test } from './support/fixture';
import { addAppsFixture, appFrame, callFixtureTool, inspectorRows } from './support/apps';

const dockApp = (page: Page): FrameLocator => page.frameLocator('.sb-pip-dock iframe.sb-app-frame').frameLocator('iframe');

test.describe('display modes', () => {
  test.beforeEach(async ({ switchboard, page }) => {
    await addAppsFixture(switchboard);
    await page.setViewportSize({ width: 1400, height: 900 });
  });

  test('picture-in-picture survives navigating to another view and back, and returns inline still running', async ({
    switchboard,
    page,
  }) => {
    await callFixtureTool(switchboard, 'pip_app');
    const inline = appFrame(page, '.sb-main iframe.sb-app-frame');
    // The host offers its three modes; once the app has declared its own, only those.
    await expect(inline.locator('#log')).toContainText('started: OK (modes inline,fullscreen,pip)', { timeout: 30_000 });
    await expect(inline.locator('#log')).toContainText(/context changed: OK \(availableDisplayModes/);
    const loaded = (await inline.locator('#loaded').textContent())!;
    const region = page.getByRole('region', { name: 'App: Pip app' });
    // The app declared inline and pip only: no full screen, from the host or on its own request.
    await expect(region.getByRole('button', { name: 'Full screen' })).toHaveCount(0);
    await inline.getByRole('button', { name: 'Ask for full screen' }).click();
    await expect(inline.locator('#log')).toContainText('asked fullscreen: OK (inline)');

    await inline.getByRole('button', { name: 'Ask for pip' }).click();
    const dock = page.getByRole('region', { name: 'Picture-in-picture app: Pip app' });
    await expect(dock).toBeVisible();
    await expect(page.getByTestId('app-in-pip')).toBeVisible();
    const app = dockApp(page);
    await expect(app.locator('#log')).toContainText('asked pip: OK (pip)');
    await expect(app.locator('#mode')).toHaveText('pip');
    await expect(app.locator('#loaded')).toHaveText(loaded);

    // Another view: the dock stays, with the same running app.
    const ticks = Number(await app.locator('#ticks').textContent());
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'History' }).click();
    await expect(page).toHaveURL(/#\/history/);
    await expect(dock).toBeVisible();
    await expect(app.locator('#loaded')).toHaveText(loaded);
    await expect.poll(async () => Number(await app.locator('#ticks').textContent())).toBeGreaterThan(ticks);

    // And back: still in the dock, its view says where it is.
    await page.goBack();
    await expect(page.getByTestId('app-in-pip')).toBeVisible();
    await expect(app.locator('#loaded')).toHaveText(loaded);

    // From the dock's control back inline: the same document, told its new mode.
    await dock.getByRole('button', { name: 'Return inline' }).click();
    await expect(dock).toHaveCount(0);
    await expect(inline.locator('#loaded')).toHaveText(loaded);
    await expect(inline.locator('#mode')).toHaveText('inline');
    await expect(page.getByTestId('app-in-pip')).toHaveCount(0);

    // The host's own control, then the dock's Close: the app is wound down and its view says so.
    await region.getByRole('button', { name: 'Picture in picture' }).click();
    await expect(dockApp(page).locator('#loaded')).toHaveText(loaded);
    await dock.getByRole('button', { name: 'Close the app' }).click();
    await expect(dock).toHaveCount(0);
    await expect(page.getByText('The app was closed.')).toBeVisible();
  });

  test('an app asked back inline from the dock is answered inline, on another view too', async ({ switchboard, page }) => {
    await callFixtureTool(switchboard, 'pip_app');
    const inline = appFrame(page, '.sb-main iframe.sb-app-frame');
    await expect(inline.locator('#log')).toContainText('started: OK', { timeout: 30_000 });
    const loaded = (await inline.locator('#loaded').textContent())!;
    await inline.getByRole('button', { name: 'Ask for pip' }).click();
    const app = dockApp(page);
    await expect(app.locator('#mode')).toHaveText('pip');
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Settings' }).click();
    await expect(page).toHaveURL(/#\/settings/);
    await app.getByRole('button', { name: 'Ask for inline' }).click();
    // The app goes back to where it was shown, and the person with it.
    await expect(page.getByRole('region', { name: 'Picture-in-picture app: Pip app' })).toHaveCount(0);
    await expect(inline.locator('#loaded')).toHaveText(loaded);
    await expect(inline.locator('#log')).toContainText('asked inline: OK (inline)');
  });

  test('an app that asks to close is wound down through ui/resource-teardown, inline and picture-in-picture', async ({
    switchboard,
    page,
  }) => {
    const said: string[] = [];
    page.on('console', (m) => said.push(m.text()));
    await callFixtureTool(switchboard, 'pip_app');
    const inline = appFrame(page, '.sb-main iframe.sb-app-frame');
    await expect(inline.locator('#log')).toContainText('started: OK', { timeout: 30_000 });
    await inline.getByRole('button', { name: 'Ask to close' }).click();
    await expect(page.getByText('The app was closed.')).toBeVisible();
    expect(said).toContain('pip app: teardown asked');

    said.length = 0;
    await page.getByRole('button', { name: 'Show the app again' }).click();
    await expect(inline.locator('#log')).toContainText('started: OK', { timeout: 30_000 });
    await inline.getByRole('button', { name: 'Ask for pip' }).click();
    const dock = page.getByRole('region', { name: 'Picture-in-picture app: Pip app' });
    await expect(dockApp(page).locator('#mode')).toHaveText('pip');
    await dockApp(page).getByRole('button', { name: 'Ask to close' }).click();
    await expect(dock).toHaveCount(0);
    await expect(page.getByText('The app was closed.')).toBeVisible();
    expect(said).toContain('pip app: teardown asked');
  });

  test('an app’s request to close while the person answers its link request is declined, and says so', async ({ switchboard, page }) => {
    await callFixtureTool(switchboard, 'pip_app');
    const inline = appFrame(page, '.sb-main iframe.sb-app-frame');
    await expect(inline.locator('#log')).toContainText('started: OK', { timeout: 30_000 });
    const loaded = (await inline.locator('#loaded').textContent())!;
    await inline.getByRole('button', { name: 'Open link' }).click();
    const dialog = page.getByRole('dialog', { name: 'Open a link from the app?' });
    await expect(dialog).toBeVisible();
    // The dialog covers the app: the app asks by itself, as a script would.
    await inline.locator('#close').evaluate((el) => (el as { click(): void }).click());
    await expect(inline.locator('#log')).toContainText('asked to close: OK');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(inline.locator('#log')).toContainText('link: DECLINED');
    const rows = await inspectorRows(page);
    expect(rows.some((r) => r.includes('The app asked to close while its link waits for your answer: it stays open'))).toBe(true);
    await expect(inline.locator('#loaded')).toHaveText(loaded);
    await expect(page.getByText('The app was closed.')).toHaveCount(0);
  });
});
