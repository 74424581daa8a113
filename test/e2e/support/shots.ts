// Screenshots for looking at a view by eye: light and dark, at 1400x900 and 1024x700, written only when SHOTS_DIR
// is set (the viewport and colour scheme are put back afterwards).
import type { Page } from '@playwright/test';

/** Takes the four screenshots of what the page shows now as `<name>-<scheme>-<width>.png`. */
export async function shots(page: Page, name: string): Promise<void> {
  const dir = process.env['SHOTS_DIR'];
  if (!dir) return;
  const before = page.viewportSize();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [width, height] of [
      [1400, 900],
      [1024, 700],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.waitForTimeout(150);
      await page.screenshot({ path: `${dir}/${name}-${scheme}-${width}.png` });
    }
  }
  await page.emulateMedia({ colorScheme: null });
  if (before) await page.setViewportSize(before);
}
