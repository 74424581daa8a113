// Events through the real renderer and headless core, against two SDK v2 events fixtures that emit on their own
// (test/fixtures/servers/events-stdio.ts with EVENTS_FIXTURE_AUTO_MS): subscribe from a server's Events tab with
// the generated form, watch occurrences arrive live in the Events view, filter by server (a deep link), pause and
// resume, and open a payload (shown as text, copied as text).
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixture';
import { fixture, type SeedServer } from './support/seed';
import { serverRow } from './support/ui';

/** An events fixture that emits on its own. */
function eventsServer(id: string, name: string): SeedServer {
  return {
    ...fixture('events-stdio.ts', id, name, { EVENTS_FIXTURE_AUTO_MS: '700', EVENTS_FIXTURE_NEXT_POLL_MS: '1000' }),
    extra: { lifecycle: 'initialize', timeouts: { probeSecs: 30, connectSecs: 60 } },
  };
}

test.use({ seed: { servers: [eventsServer('ops', 'Ops alerts'), eventsServer('beta', 'Beta ticks')] } });

/** Feed rows as the person sees them: event type, server and payload preview per row. */
async function rows(page: Page): Promise<{ seq: number; text: string }[]> {
  return page
    .getByTestId('feed-row')
    .evaluateAll((els) => els.map((el) => ({ seq: Number(el.getAttribute('data-seq')), text: el.textContent ?? '' })));
}

async function subscribeFromTab(
  page: Page,
  server: string,
  name: string,
  type: string,
  mode: 'Poll' | 'Push',
  fill?: (form: ReturnType<Page['getByTestId']>) => Promise<void>,
) {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Servers' }).click();
  await serverRow(page, name).click();
  await page.getByRole('tab', { name: 'Events' }).click();
  const card = page.getByLabel(`Event type ${type}`, { exact: true });
  await card.getByRole('button', { name: 'Subscribe…' }).click();
  const form = card.getByTestId('subscribe-form');
  await form.getByText(mode, { exact: true }).click();
  if (fill) await fill(form);
  await form.getByRole('button', { name: 'Subscribe', exact: true }).click();
  const sub = page.getByLabel(`Subscription to ${type} on ${server}`);
  await expect(sub.getByTestId('subscription-state')).toHaveText(mode === 'Push' ? 'streaming' : 'polling', { timeout: 30_000 });
}

test('subscribe from the Events tab, watch events arrive live, filter by server, pause and resume, open a payload', async ({
  page,
  context,
}) => {
  // Two servers, three subscriptions' worth of live traffic and an accessibility scan: longer than the default.
  test.setTimeout(240_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await expect(serverRow(page, 'Ops alerts')).toContainText('Connected', { timeout: 60_000 });
  await expect(serverRow(page, 'Beta ticks')).toContainText('Connected', { timeout: 60_000 });

  // The generated form: only high-severity alerts, by push.
  await subscribeFromTab(page, 'ops', 'Ops alerts', 'alert', 'Push', async (form) => {
    await form.getByLabel('severity', { exact: true }).selectOption('high');
  });
  await subscribeFromTab(page, 'beta', 'Beta ticks', 'tick.all', 'Poll');

  // The Events view: occurrences from both servers arrive without reloading.
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Events' }).click();
  await expect(page).toHaveURL(/#\/events/);
  const feed = page.getByRole('feed', { name: 'Event feed, newest first' });
  await expect(feed.getByTestId('feed-row').filter({ hasText: 'alert' }).first()).toBeVisible({ timeout: 30_000 });
  const firstTop = (await rows(page))[0]?.seq ?? 0;
  await expect.poll(async () => (await rows(page))[0]?.seq ?? 0, { timeout: 20_000 }).toBeGreaterThan(firstTop);
  await expect(feed.getByTestId('feed-row').filter({ hasText: 'beta' }).filter({ hasText: 'tick.all' }).first()).toBeVisible({
    timeout: 30_000,
  });
  // The subscription's arguments reached the server: every alert is a high one.
  for (const r of (await rows(page)).filter((x) => x.text.includes('alert-'))) expect(r.text).toContain('"severity": "high"');

  // Filter by server: the choice is in the location (a deep link) and only ops rows remain.
  await page.getByRole('search', { name: 'Filter the feed' }).getByRole('combobox', { name: 'Servers' }).click();
  await page.getByRole('option', { name: 'Ops alerts (ops)' }).click();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/server=ops/);
  await expect.poll(async () => (await rows(page)).every((r) => r.text.includes('ops') && !r.text.includes('beta'))).toBe(true);
  await expect.poll(async () => (await rows(page)).length, { timeout: 30_000 }).toBeGreaterThan(0);
  await page.reload();
  await expect(page.getByRole('search', { name: 'Filter the feed' })).toContainText('Ops alerts (ops)');
  await expect.poll(async () => (await rows(page)).length, { timeout: 30_000 }).toBeGreaterThan(0);
  expect((await rows(page)).every((r) => !r.text.includes('beta'))).toBe(true);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).not.toHaveURL(/server=/);

  // Pause the alert subscription: once later beta ticks have arrived, no newer alert has.
  const side = page.getByRole('complementary', { name: 'Subscriptions' });
  const alertCard = side.getByLabel('Subscription to alert on ops');
  await alertCard.getByRole('button', { name: 'Pause' }).click();
  await expect(alertCard.getByTestId('subscription-state')).toHaveText('paused');
  const pausedAt = Math.max(0, ...(await rows(page)).map((r) => r.seq));
  await expect
    .poll(async () => (await rows(page)).filter((r) => r.seq > pausedAt && r.text.includes('beta') && r.text.includes('tick.all')).length, {
      timeout: 30_000,
    })
    .toBeGreaterThanOrEqual(2);
  expect((await rows(page)).filter((r) => r.seq > pausedAt && r.text.includes('alert-'))).toEqual([]);
  // Resume: alerts arrive again (from where the subscription stopped).
  await alertCard.getByRole('button', { name: 'Resume' }).click();
  await expect(alertCard.getByTestId('subscription-state')).toHaveText('streaming', { timeout: 30_000 });
  await expect
    .poll(async () => (await rows(page)).filter((r) => r.seq > pausedAt && r.text.includes('alert-')).length, { timeout: 30_000 })
    .toBeGreaterThan(0);

  // Open a payload: JSON as text, copied as text.
  await feed.getByTestId('feed-row').filter({ hasText: 'alert-' }).first().getByRole('button').click();
  const detail = page.getByTestId('entry-detail');
  await expect(detail.getByTestId('entry-payload')).toContainText('"severity": "high"');
  await expect(detail.getByTestId('entry-payload')).toContainText('"summary": "Latency above threshold');
  await detail.getByRole('button', { name: 'Copy payload' }).click();
  await expect(detail.getByRole('button', { name: 'Copied' })).toBeVisible();
  const copied = (await page.evaluate('navigator.clipboard.readText()')) as string;
  expect(JSON.parse(copied)).toMatchObject({ severity: 'high' });
  await page.getByRole('button', { name: 'Close the entry' }).click();
  await expect(detail).toBeHidden();

  // No serious accessibility problems in the view (scanned while paused, so the list holds still).
  await page
    .getByRole('complementary', { name: 'Subscriptions' })
    .getByLabel('Subscription to alert on ops')
    .getByRole('button', { name: 'Pause' })
    .click();
  await page
    .getByRole('complementary', { name: 'Subscriptions' })
    .getByLabel('Subscription to tick.all on beta')
    .getByRole('button', { name: 'Pause' })
    .click();
  const axe = await new AxeBuilder({ page }).include('.sb-events-layout').analyze();
  const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map(
      (v) =>
        `${v.id}: ${v.help} (${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(' | ')})`,
    ),
  ).toEqual([]);
});
