// Webhook delivery through a relay, as a person does it: on the events server's Events tab, choose Webhook and a
// relay server (the relay fixture, listening on 127.0.0.1 only), subscribe, and see the server's deliveries,
// relayed and verified, arrive in the Events view. The form says what a person on a laptop can do.
import { expect, test } from './support/fixture';
import { fixture, type SeedServer } from './support/seed';
import { shots } from './support/shots';
import { callResult, openServerTool, serverRow } from './support/ui';

const extra = { lifecycle: 'discover', timeouts: { probeSecs: 30, connectSecs: 60 } };
const hooks: SeedServer = { ...fixture('events-webhook-v2.ts', 'wh', 'Webhook server'), extra };
const relay: SeedServer = { ...fixture('webhook-relay.ts', 'relay', 'Webhook relay'), extra };

test.use({ seed: { servers: [hooks, relay] } });

test('a webhook subscription through a relay server delivers verified events into the feed', async ({ switchboard, page }) => {
  test.setTimeout(180_000);
  await expect(serverRow(page, 'Webhook relay')).toContainText('Connected', { timeout: 60_000 });
  await expect(serverRow(page, 'Webhook server')).toContainText('Connected', { timeout: 60_000 });
  await serverRow(page, 'Webhook server').click();
  await page.getByRole('tab', { name: 'Events' }).click();
  const card = page.getByLabel('Event type hook.tick', { exact: true });
  await card.getByRole('button', { name: 'Subscribe…' }).click();
  const form = card.getByTestId('subscribe-form');
  await form.getByText('Webhook', { exact: true }).click();
  await expect(form).toContainText('A server on the internet cannot reach this computer');
  await expect(form).toContainText('Switchboard opens no listener for webhooks');
  await expect(form).toContainText('behind a tunnel you run');
  await form.getByRole('combobox', { name: 'Relay server' }).click();
  await page.getByRole('option', { name: 'Webhook relay' }).click();
  await form.scrollIntoViewIfNeeded();
  await shots(page, 'webhook-relay-form');
  await form.getByRole('button', { name: 'Subscribe', exact: true }).click();
  const sub = page.getByLabel('Subscription to hook.tick on wh');
  await expect(sub.getByTestId('subscription-state')).toHaveText('registered', { timeout: 30_000 });
  await expect(sub).toContainText('through the relay Webhook relay');
  await sub.scrollIntoViewIfNeeded();
  await shots(page, 'webhook-relay-subscription');

  const panel = await openServerTool(switchboard, 'wh', 'mcp__wh__emit');
  await panel.locator('#root_count').fill('2');
  await panel.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(callResult(page).getByTestId('call-status')).toHaveText('Succeeded', { timeout: 30_000 });

  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Events' }).click();
  const feed = page.getByRole('feed', { name: 'Event feed, newest first' });
  await expect(feed.getByTestId('feed-row').filter({ hasText: 'wh-2' })).toHaveCount(1, { timeout: 30_000 });
  await expect(feed.getByTestId('feed-row').filter({ hasText: 'wh-1' })).toHaveCount(1);
});
