// One accessibility check for the e2e specs: WCAG 2.0–2.2 A/AA and best-practice rules over a part of the page;
// serious and critical violations fail the test, each listed with its nodes.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** Runs axe over `include` (a selector) or the whole page and expects no serious or critical violation. */
export async function expectAccessible(page: Page, include?: string): Promise<void> {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']);
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  const bad = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => `${n.target.join(' ')}: ${n.html.slice(0, 160)} — ${n.failureSummary ?? ''}`).join('\n  ')}`,
    );
  expect(bad, bad.join('\n')).toEqual([]);
}
