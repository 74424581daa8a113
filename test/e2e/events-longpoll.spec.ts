// A long-poll subscription through the real renderer and headless core, against the newest-sketch events fixture
// (test/fixtures/servers/events-longpoll.ts, emitting on its own): subscribe by poll from the server's Events tab,
// watch occurrences arrive in the Events view, and see the subscription survive a schema_changed termination the
// server makes once: one timeline entry says it was resubscribed, and occurrences keep arriving after it.
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixture';
import { fixture, root, type SeedServer } from './support/seed';
import { serverRow } from './support/ui';

const SHOTS = join(root, 'test-results', 'events-longpoll');

const server: SeedServer = {
  ...fixture('events-longpoll.ts', 'lp', 'Long poll ticks', { EVENTS_LP_AUTO_MS: '700', EVENTS_LP_BREAK_AFTER: '3' }),
  extra: { lifecycle: 'discover', timeouts: { probeSecs: 30, connectSecs: 60 } },
};

/** An events server of the earlier shape whose types offer webhook delivery (for the webhook form's advice). */
const hooks: SeedServer = {
  ...fixture('events-stdio.ts', 'hooks', 'Webhook ticks'),
  extra: { lifecycle: 'initialize', timeouts: { probeSecs: 30, connectSecs: 60 } },
};

test.use({ seed: { servers: [server, hooks] } });

/** Feed rows as the person sees them, newest first. */
async function rows(page: Page): Promise<{ seq: number; text: string }[]> {
  return page
    .getByTestId('feed-row')
    .evaluateAll((els) => els.map((el) => ({ seq: Number(el.getAttribute('data-seq')), text: el.textContent ?? '' })));
}

async function shots(page: Page, name: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const [width, height] of [
      [1400, 900],
      [1024, 700],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.screenshot({ path: join(SHOTS, `${name}-${colorScheme}-${width}.png`) });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1400, height: 900 });
}

test('a long-poll subscription delivers in the feed and survives a schema_changed termination', async ({ page }) => {
  test.setTimeout(180_000);
  await expect(serverRow(page, 'Long poll ticks')).toContainText('Connected', { timeout: 60_000 });
  await serverRow(page, 'Long poll ticks').click();
  await page.getByRole('tab', { name: 'Events' }).click();
  const card = page.getByLabel('Event type lp.tick', { exact: true });
  await card.getByRole('button', { name: 'Subscribe…' }).click();
  const form = card.getByTestId('subscribe-form');
  await form.getByText('Poll', { exact: true }).click();
  await form.getByRole('button', { name: 'Subscribe', exact: true }).click();
  const sub = page.getByLabel('Subscription to lp.tick on lp');
  await expect(sub.getByTestId('subscription-state')).toHaveText('polling', { timeout: 30_000 });

  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Events' }).click();
  const feed = page.getByRole('feed', { name: 'Event feed, newest first' });
  // The server ends the subscription once after three occurrences; Switchboard resubscribes and says so once.
  const note = feed.getByTestId('feed-row').filter({ hasText: 'listed its event types again and resubscribed' });
  await expect(note).toHaveCount(1, { timeout: 60_000 });
  const noteSeq = Number(await note.getAttribute('data-seq'));
  // Occurrences keep arriving after it, and the subscription is polling again.
  await expect
    .poll(async () => (await rows(page)).filter((r) => r.seq > noteSeq && r.text.includes('lp.tick') && r.text.includes('lp-')).length, {
      timeout: 60_000,
    })
    .toBeGreaterThanOrEqual(2);
  expect((await rows(page)).filter((r) => r.seq < noteSeq && r.text.includes('lp-')).length).toBeGreaterThan(0);
  const side = page.getByRole('complementary', { name: 'Subscriptions' });
  await expect(side.getByLabel('Subscription to lp.tick on lp').getByTestId('subscription-state')).toHaveText('polling');
  await expect(note).toHaveCount(1);
  await shots(page, 'events-view');

  // The server's Events tab with the subscription, as the person sees it.
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Servers' }).click();
  await serverRow(page, 'Long poll ticks').click();
  await page.getByRole('tab', { name: 'Events' }).click();
  await expect(page.getByLabel('Subscription to lp.tick on lp').getByTestId('subscription-state')).toHaveText('polling');
  await shots(page, 'server-events-tab');

  // Webhook delivery tells a person on a laptop what to do: a relay (hosted, or here behind a tunnel they run), or poll / push.
  await expect(serverRow(page, 'Webhook ticks')).toContainText('Connected', { timeout: 60_000 });
  await serverRow(page, 'Webhook ticks').click();
  await page.getByRole('tab', { name: 'Events' }).click();
  const hookCard = page.getByLabel('Event type tick.all', { exact: true });
  await hookCard.getByRole('button', { name: 'Subscribe…' }).click();
  const hookForm = hookCard.getByTestId('subscribe-form');
  await hookForm.getByText('Webhook', { exact: true }).click();
  await expect(hookForm).toContainText('A server on the internet cannot reach this computer');
  await expect(hookForm).toContainText('Switchboard opens no listener for webhooks, so the events come through a relay');
  await expect(hookForm).toContainText('behind a tunnel you run');
  await hookForm.scrollIntoViewIfNeeded();
  await shots(page, 'webhook-form');
});
