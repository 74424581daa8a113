// The "Connecting…" pill keeps its words on one line beside its spinner, uncut, in the page header and the sidebar,
// at a wide and a narrow window: measured, not eyeballed (the dot and the spinner together once pushed the words onto
// a second, clipped row).
import type { Locator } from '@playwright/test';
import { expect, test } from './support/fixture';
import { fixture } from './support/seed';
import { connectionStatus, serverRow } from './support/ui';

// A server that never answers initialize stays "Connecting…" for the whole test.
test.use({
  seed: {
    servers: [
      { ...fixture('hang.ts', 'slow', 'Slow starter'), extra: { lifecycle: 'initialize', timeouts: { probeSecs: 600, connectSecs: 600 } } },
    ],
  },
});

interface PillBox {
  text: string;
  /** The words are not cut (no ellipsis, no second line hidden). */
  textFits: boolean;
  /** The words lie inside the pill's box. */
  inside: boolean;
  /** Spinner and words share one row, the spinner left of the words. */
  oneRow: boolean;
  /** Nothing covers the words' middle (clipped or overlapped). */
  visibleAtCentre: boolean;
}

function measure(badge: Locator): Promise<PillBox> {
  return badge.evaluate((el) => {
    const label = el.querySelector('.mantine-Badge-label');
    const section = el.querySelector('.mantine-Badge-section');
    if (!label || !section) throw new Error('the pill has no label or no spinner');
    const b = el.getBoundingClientRect();
    const l = label.getBoundingClientRect();
    const s = section.getBoundingClientRect();
    const hit = el.ownerDocument.elementFromPoint((l.left + l.right) / 2, (l.top + l.bottom) / 2);
    return {
      text: label.textContent ?? '',
      textFits: label.scrollWidth <= label.clientWidth && label.scrollHeight <= label.clientHeight + 1,
      inside: l.left >= b.left && l.right <= b.right + 0.5 && l.top >= b.top - 0.5 && l.bottom <= b.bottom + 0.5,
      oneRow: Math.abs((s.top + s.bottom) / 2 - (l.top + l.bottom) / 2) < 3 && s.right <= l.left + 0.5,
      visibleAtCentre: hit !== null && el.contains(hit),
    };
  });
}

const fits: PillBox = { text: 'Connecting…', textFits: true, inside: true, oneRow: true, visibleAtCentre: true };

for (const [width, height] of [
  [1400, 900],
  [1024, 700],
] as const) {
  test(`at ${width}×${height} the Connecting… pill fits in the header and in the sidebar`, async ({ switchboard, page }) => {
    await page.setViewportSize({ width, height });
    await switchboard.goto('#/servers/slow');
    await expect(connectionStatus(page)).toHaveText('Connecting…', { timeout: 30_000 });
    const header = connectionStatus(page).locator('[data-status="connecting"]');
    const sidebar = serverRow(page, 'Slow starter').locator('[data-status="connecting"]');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await measure(header), `header, ${scheme}`).toEqual(fits);
      expect(await measure(sidebar), `sidebar, ${scheme}`).toEqual(fits);
    }
  });
}
