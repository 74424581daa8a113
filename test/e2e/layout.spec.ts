// Words the person needs are never cut or broken, measured in the page: the views' names at 1024 px, the resource
// kind and MIME chips, the app's title, the pieces of a split command line, the Add dialog's Name and Id boxes side
// by side, the call dialog's actions on one row; a hovered link in History readable in the dark theme; the Events
// view counting every stored entry, not only the first page.
import type { Locator } from '@playwright/test';
import { addAppsFixture, callFixtureTool } from './support/apps';
import { expect, test } from './support/fixture';
import { everything, fixture } from './support/seed';
import { openAddDialog, serverList } from './support/ui';

/** Whether an element's text is shown whole (no ellipsis, nothing scrolled out of its box). */
const wholeText = (el: Locator): Promise<boolean> =>
  el.evaluate((e) => e.scrollWidth <= e.clientWidth + 0.5 && e.scrollHeight <= e.clientHeight + 1);

test.describe('with servers connected', () => {
  test.use({
    seed: {
      servers: [
        everything('everything', 'Everything'),
        fixture('res-server.ts', 'res', 'Resource Fixture'),
        { ...fixture('events-stdio.ts', 'ops', 'Ops alerts'), extra: { lifecycle: 'initialize' } },
      ],
    },
  });

  test('at 1024 px every view keeps a visible name in the navigation, which is also its accessible name', async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 700 });
    const links = page.getByRole('navigation', { name: 'Views' }).getByRole('link');
    await expect(links).toHaveCount(8);
    for (const link of await links.all()) {
      const label = link.locator('.sb-nav-label');
      const name = (await label.textContent()) ?? '';
      await expect(label, name).toBeVisible();
      expect(await label.evaluate((e) => e.getBoundingClientRect().width), name).toBeGreaterThan(8);
      expect(await wholeText(label), `${name} shown whole`).toBe(true);
      await expect(link).toHaveAccessibleName(name);
      await expect(label).toBeInViewport({ ratio: 1 });
    }
  });

  test('a resource preview keeps its kind and MIME chips whole at 1024 px; the address beside them is what is cut', async ({
    switchboard,
    page,
  }) => {
    await page.setViewportSize({ width: 1024, height: 700 });
    await switchboard.goto('#/servers/res/resources/res%3A%2F%2Freadme.md');
    const preview = page.getByRole('region', { name: 'Preview' });
    await expect(preview.getByRole('heading', { name: 'Title' })).toBeVisible({ timeout: 30_000 });
    const part = preview.getByRole('article');
    for (const chip of ['Markdown', 'text/markdown']) {
      const label = part.getByText(chip, { exact: true });
      await expect(label).toBeVisible();
      expect(await wholeText(label), chip).toBe(true);
    }
  });

  test('the split hint keeps each argument chip on one line, and the Name and Id boxes line up', async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 700 });
    await expect(serverList(page).getByText('Connected')).toHaveCount(3, { timeout: 60_000 });
    const dialog = await openAddDialog(page);
    const name = dialog.getByRole('textbox', { name: 'Name', exact: true });
    const id = dialog.getByRole('textbox', { name: 'Id', exact: true });
    await name.fill('Split me');
    const [nameBox, idBox] = [await name.boundingBox(), await id.boundingBox()];
    expect(Math.abs((nameBox?.y ?? 0) - (idBox?.y ?? -100)), 'Name and Id boxes at the same height').toBeLessThan(1);
    expect(Math.abs((nameBox?.height ?? 0) - (idBox?.height ?? -100))).toBeLessThan(1);
    await dialog.getByRole('textbox', { name: 'Command', exact: true }).fill('npx -y @modelcontextprotocol/server-everything');
    const offer = dialog.getByRole('region', { name: 'Split the command line' });
    const chips = offer.locator('code');
    await expect(chips).toHaveText(['npx', '-y', '@modelcontextprotocol/server-everything']);
    for (const chip of await chips.all()) {
      expect(await chip.evaluate((e) => e.getClientRects().length), `${await chip.textContent()} on one line`).toBe(1);
    }
  });

  test('a call dialog keeps Run again on the row of its other actions; a hovered History link is readable in dark', async ({
    switchboard,
    page,
    bridge,
  }) => {
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(serverList(page).getByText('Connected')).toHaveCount(3, { timeout: 60_000 });
    await bridge['tools.call']({ name: 'mcp__everything__echo', arguments: { message: 'layout' } });
    await switchboard.goto('#/history');
    const link = page.getByRole('table', { name: 'Recent calls' }).getByRole('link').first();
    await link.hover();
    // WCAG contrast of the link's colour on the hovered row's background (both as computed by the browser).
    const ratio = await link.evaluate((a) => {
      const rgb = (c: string): number[] => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
      const lum = ([r, g, b]: number[]): number => {
        const f = (v: number): number => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
        return 0.2126 * f(r ?? 0) + 0.7152 * f(g ?? 0) + 0.0722 * f(b ?? 0);
      };
      const style = (e: typeof a) =>
        (
          a.ownerDocument.defaultView as unknown as { getComputedStyle(e: unknown): { color: string; backgroundColor: string } }
        ).getComputedStyle(e);
      let bg: typeof a | null = a;
      while (bg && /rgba\(0, 0, 0, 0\)|transparent/.test(style(bg).backgroundColor)) bg = bg.parentElement;
      const fg = lum(rgb(style(a).color));
      const back = lum(rgb(style(bg ?? a.ownerDocument.body).backgroundColor));
      return (Math.max(fg, back) + 0.05) / (Math.min(fg, back) + 0.05);
    });
    expect(ratio, 'hovered link contrast').toBeGreaterThanOrEqual(4.5);

    await link.click();
    const dialog = page.getByRole('dialog', { name: /^Call: / });
    await expect(dialog.getByTestId('call-detail')).toBeVisible();
    const runAgain = dialog.getByRole('button', { name: 'Run again' });
    const load = dialog.getByRole('button', { name: 'Load into form' });
    const [a, b] = [await runAgain.boundingBox(), await load.boundingBox()];
    expect(Math.abs((a?.y ?? 0) - (b?.y ?? -100)), 'Run again on the same row').toBeLessThan(1);
  });

  test('the Events view names how many entries are stored, not only the first page', async ({ switchboard, page, bridge }) => {
    await expect(serverList(page).getByText('Connected')).toHaveCount(3, { timeout: 60_000 });
    await bridge['events.subscribe']({ id: 'ops', name: 'tick.push', arguments: {}, mode: 'push' });
    await bridge['tools.call']({ name: 'mcp__ops__emit', arguments: { name: 'tick.push', count: 150 } });
    await expect
      .poll(async () => (await bridge['events.feed']({ filter: {}, limit: 1 })).total ?? 0, { timeout: 30_000 })
      .toBeGreaterThanOrEqual(150);
    const stored = (await bridge['events.feed']({ filter: {}, limit: 1 })).total ?? 0;
    await switchboard.goto('#/events');
    await expect(page.getByTestId('feed-row').first()).toBeVisible();
    const line = page.getByText(/ entries shown · arriving live$/);
    await expect(line).toHaveText(new RegExp(`^60 of ${stored} entries shown`));
  });
});

test('an app keeps its title whole in a narrow result pane', async ({ switchboard, page }) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  await addAppsFixture(switchboard);
  await callFixtureTool(switchboard, 'hello');
  const app = page.getByRole('region', { name: /^App: / });
  await expect(app).toBeVisible({ timeout: 30_000 });
  const title = app
    .locator('.sb-app-bar')
    .getByText(/^Hello/)
    .first();
  await expect(title).toBeVisible();
  expect(await wholeText(title), `${await title.textContent()} shown whole`).toBe(true);
});
