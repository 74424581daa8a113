// Server instructions on the catalog's group card and on the server page, through the real renderer and headless
// core, against test/fixtures/servers/instructions-stdio.ts, whose instructions hold markup-looking and control text.
import { expect, test } from './support/fixture';
import { fixture } from './support/seed';
import { connectionStatus, serverRow } from './support/ui';

const TITLE = 'Instructions Fixture';
/** The fixture's instructions as they must be shown: markup as literal text, the ANSI, zero-width and bidi characters gone. */
const SHOWN = 'Use <b>bold</b> & <script>window.__pwned=1</script> carefully\nThen red alert';
/** Characters that must not reach the page: ESC, zero-width space, right-to-left override. */
const CONTROL = /[\u001b\u200b\u202e]/;

// The fixture approved and connected at start-up.
test.use({ seed: { servers: [fixture('instructions-stdio.ts', 'instr', TITLE)] } });

const pwned = (): unknown => (globalThis as { __pwned?: unknown }).__pwned;

test('server instructions are shown as literal text without control characters on the group card and the server page', async ({ page }) => {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Catalog' }).click();

  const card = page.getByRole('list', { name: 'Capability groups' }).getByRole('listitem', { name: TITLE });
  await expect(card).toBeVisible({ timeout: 45_000 });
  await expect(page.getByTestId('group-count-instr')).toHaveText('1 callable tool');
  await card.getByRole('button', { name: 'Instructions from the server (untrusted)' }).click();
  const instructions = card.getByTestId('group-instructions-instr');
  await expect(instructions).toBeVisible();
  await expect(instructions).toHaveText(SHOWN, { useInnerText: true });
  expect(await instructions.textContent()).toBe(SHOWN);
  await expect(card.locator('b, script, strong')).toHaveCount(0);
  expect(await card.textContent()).not.toMatch(CONTROL);
  expect(await page.evaluate(pwned)).toBeUndefined();

  // The server page's "Server information" (overview tab) shows the same text the same way.
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Servers' }).click();
  await serverRow(page, TITLE).click();
  await expect(connectionStatus(page)).toHaveText('Connected', { timeout: 30_000 });
  const info = page.getByRole('region', { name: 'Server information' });
  const shown = info.getByTestId('server-instructions');
  await expect(shown).toBeVisible();
  expect(await shown.textContent()).toBe(SHOWN);
  await expect(info.locator('b, script, strong')).toHaveCount(0);
  expect(await info.textContent()).not.toMatch(CONTROL);
  expect(await page.evaluate(pwned)).toBeUndefined();
});
