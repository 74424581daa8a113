// Headless: the link changes on every start. A tab opened with the last run's link does not just fail to connect:
// it says the link is from an earlier run and where the new one is printed; the new link works.
import { expect, test } from './support/fixture';

test("a tab with the last run's link says it is stale and where the new link is", async ({ switchboard, page, browser }, info) => {
  test.skip(info.project.name !== 'headless', 'only headless mode has links with tokens');
  const oldToken = new URL(switchboard.url).hash.replace('#token=', '');
  await switchboard.restart();
  const fresh = new URL(switchboard.url);
  expect(fresh.hash).not.toBe(`#token=${oldToken}`);

  // A new tab (its own session storage) with the old token on the running host's address.
  const context = await browser.newContext({ viewport: page.viewportSize() ?? { width: 1400, height: 900 } });
  try {
    const tab = await context.newPage();
    await tab.goto(`${fresh.origin}/#token=${oldToken}`);
    const alert = tab.getByRole('alert');
    await expect(tab.getByRole('heading', { name: 'This link is from an earlier run' })).toBeVisible();
    await expect(alert).toContainText('the link changes every time it starts');
    await expect(alert).toContainText('Switchboard is running at http://127.0.0.1:');
    await expect(alert).not.toContainText('Could not connect');
    if (process.env['SHOTS_DIR']) {
      for (const [w, h] of [
        [1400, 900],
        [1024, 700],
      ] as const) {
        for (const scheme of ['light', 'dark'] as const) {
          await tab.emulateMedia({ colorScheme: scheme });
          await tab.setViewportSize({ width: w, height: h });
          await tab.screenshot({ path: `${process.env['SHOTS_DIR']}/stale-link-${scheme}-${w}.png` });
        }
      }
    }
    // A reload does not bring the stale token back, and the new link works in the same tab.
    await tab.goto(switchboard.url);
    await tab.reload();
    await expect(tab.getByText('Switchboard', { exact: true }).first()).toBeVisible();
    await expect(tab.getByRole('heading', { name: 'This link is from an earlier run' })).toHaveCount(0);
  } finally {
    await context.close();
  }
});
