// A webhook relay server in the gateway client dialog: it carries Switchboard's own webhook deliveries, so the
// dialog offers it as not selectable and says why (the core refuses it in a profile with relay_not_servable). The
// relay fixture (SDK v2 over stdio) is known as a relay once its tools are listed.
import { expect, test } from './support/fixture';
import { fixture, type SeedServer } from './support/seed';
import { shots } from './support/shots';
import { serverRow } from './support/ui';

const extra = { lifecycle: 'discover', timeouts: { probeSecs: 30, connectSecs: 60 } };
const relay: SeedServer = { ...fixture('webhook-relay.ts', 'relay', 'Webhook relay'), extra };

test.use({ seed: { servers: [fixture('calls-stdio.ts', 'fx', 'fx'), relay] } });

test('the add-client dialog offers a webhook relay server as not selectable, with the reason', async ({ page }) => {
  test.setTimeout(120_000);
  await expect(serverRow(page, 'Webhook relay')).toContainText('Connected', { timeout: 60_000 });
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Gateway' }).click();
  await page.getByRole('button', { name: 'Add client' }).click();
  const add = page.getByRole('dialog', { name: 'Add a gateway client' });
  // Even "all servers" leaves it out, and the dialog says so.
  await expect(add.getByTestId('relay-note')).toContainText('Webhook relay (relay) is a webhook relay server', { timeout: 30_000 });
  await expect(add.getByTestId('relay-note')).toContainText('not even one that sees all servers');
  await add.getByLabel('All servers, including ones added later').uncheck();
  await add.getByRole('combobox', { name: 'Servers it sees' }).click();
  const option = page.getByRole('option', { name: /Webhook relay \(relay\): webhook relay, not available/ });
  await expect(option).toBeVisible();
  await expect(option).toHaveAttribute('aria-disabled', 'true');
  await shots(page, 'gateway-client-relay');
  await option.click({ force: true });
  await expect(add.getByTestId('relay-dropped')).toHaveCount(0);
  await page.getByRole('option', { name: 'fx' }).click();
  await page.keyboard.press('Escape');
  await add.getByLabel('Name').fill('Relay Check');
  await expect(add.getByTestId('relay-note')).toContainText('so no gateway client is given it.');
  await shots(page, 'gateway-client-relay-note');
  await add.getByRole('button', { name: 'Add client' }).click();
  await expect(page.getByRole('dialog', { name: 'Relay Check was added' })).toBeVisible();
});
