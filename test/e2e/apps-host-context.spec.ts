// The host context in a real browser: an app starts with all 76 style variables and font CSS, and a theme switch
// reaches it as one host-context-changed carrying only what changed (theme and styles), in the new scheme's colours.
import { expect, test } from './support/fixture';
import { addAppsFixture, appFrame, callFixtureTool } from './support/apps';

test('a theme switch reaches the app as a host-context change of only theme and styles', async ({ switchboard, page }) => {
  await addAppsFixture(switchboard);
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  await callFixtureTool(switchboard, 'pip_app');
  const log = appFrame(page).locator('#log');
  await expect(log).toContainText('styles: OK (light 76 variables, fonts yes, background #fff', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Use the dark theme' }).click();
  await expect(log).toContainText('context changed: OK (styles,theme dark 76 variables, background #242424)');
  await page.getByRole('button', { name: 'Use the light theme' }).click();
  await expect(log).toContainText('context changed: OK (styles,theme light 76 variables, background #fff');
});
