// Colour variables raised to WCAG AA contrast (4.5:1 for normal text) on the app's backgrounds: the library's dimmed
// text, error text and the text of its light, outline and subtle variants are a shade or two too pale by default.
import type { CSSVariablesResolver } from '@mantine/core';

const COLORS = ['brand', 'gray', 'red', 'orange', 'yellow', 'green', 'teal', 'blue', 'grape', 'violet', 'cyan', 'pink', 'lime', 'indigo'];

/** Overrides of the library's CSS variables, per colour scheme. */
export const contrastResolver: CSSVariablesResolver = () => {
  const light: Record<string, string> = {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-6)',
  };
  const dark: Record<string, string> = {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    '--mantine-color-error': 'var(--mantine-color-red-4)',
    // Shade 2, not 3: a link in a hovered table row (dark-5, #3b3b3b) was 3.97:1 in shade 3 and is 6.0:1 in shade 2.
    '--mantine-color-anchor': 'var(--mantine-color-brand-2)',
  };
  for (const c of COLORS) {
    // Light-variant text sits on a tinted background (and badges on a selected row): darker than shade 9.
    light[`--mantine-color-${c}-light-color`] = `color-mix(in srgb, var(--mantine-color-${c}-9) 72%, black)`;
    light[`--mantine-color-${c}-outline`] = `var(--mantine-color-${c}-8)`;
    light[`--mantine-color-${c}-text`] = `var(--mantine-color-${c}-9)`;
    if (c !== 'brand') {
      // White text on a filled background (a destructive button, a status badge): shade 9 darkened to 4.5:1 or better.
      for (const scheme of [light, dark]) {
        scheme[`--mantine-color-${c}-filled`] = `color-mix(in srgb, var(--mantine-color-${c}-9) 70%, black)`;
        scheme[`--mantine-color-${c}-filled-hover`] = `color-mix(in srgb, var(--mantine-color-${c}-9) 58%, black)`;
      }
    }
    dark[`--mantine-color-${c}-light-color`] = `var(--mantine-color-${c}-2)`;
    dark[`--mantine-color-${c}-text`] = `var(--mantine-color-${c}-3)`;
    dark[`--mantine-color-${c}-outline`] = `var(--mantine-color-${c}-3)`;
  }
  return { variables: {}, light, dark };
};
