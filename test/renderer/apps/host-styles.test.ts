// The host's look for apps: all of the extension's style variables, from Switchboard's own Mantine theme, present and
// self-contained in both colour schemes, and different where the scheme should change them.
import { mergeMantineTheme, DEFAULT_THEME } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { HOST_FONTS_CSS, hostStyleVariables, STYLE_VARIABLES } from '../../../renderer/src/apps/host-styles';
import { theme } from '../../../renderer/src/ui/theme';

const mantine = mergeMantineTheme(DEFAULT_THEME, theme);

/** The extension's own list (its type's union, as the spec lists it). */
const SPEC_KEYS = [
  ...['background', 'text', 'border'].flatMap((k) =>
    ['primary', 'secondary', 'tertiary', 'inverse', 'ghost', 'info', 'danger', 'success', 'warning', 'disabled'].map(
      (t) => `--color-${k}-${t}`,
    ),
  ),
  ...['primary', 'secondary', 'inverse', 'info', 'danger', 'success', 'warning'].map((t) => `--color-ring-${t}`),
  '--font-sans',
  '--font-mono',
  ...['normal', 'medium', 'semibold', 'bold'].map((w) => `--font-weight-${w}`),
  ...['xs', 'sm', 'md', 'lg'].map((s) => `--font-text-${s}-size`),
  ...['xs', 'sm', 'md', 'lg', 'xl', '2xl', '3xl'].map((s) => `--font-heading-${s}-size`),
  ...['xs', 'sm', 'md', 'lg'].map((s) => `--font-text-${s}-line-height`),
  ...['xs', 'sm', 'md', 'lg', 'xl', '2xl', '3xl'].map((s) => `--font-heading-${s}-line-height`),
  ...['xs', 'sm', 'md', 'lg', 'xl', 'full'].map((s) => `--border-radius-${s}`),
  '--border-width-regular',
  '--shadow-hairline',
  '--shadow-sm',
  '--shadow-md',
  '--shadow-lg',
];

describe('hostStyleVariables', () => {
  it('lists exactly the extension’s 76 variables', () => {
    expect(SPEC_KEYS).toHaveLength(76);
    expect([...STYLE_VARIABLES].sort()).toEqual([...SPEC_KEYS].sort());
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`gives every variable a non-empty, self-contained value in the ${scheme} scheme`, () => {
      const vars = hostStyleVariables(mantine, scheme);
      expect(Object.keys(vars).sort()).toEqual([...SPEC_KEYS].sort());
      for (const key of SPEC_KEYS) {
        const value = vars[key as keyof typeof vars];
        expect(typeof value === 'string' && value.trim().length > 0, key).toBe(true);
        // The app's document has none of the host's custom properties.
        expect(value, key).not.toMatch(/var\(/);
      }
    });
  }

  it('follows the scheme: body, text and borders change; fonts and sizes do not', () => {
    const light = hostStyleVariables(mantine, 'light');
    const dark = hostStyleVariables(mantine, 'dark');
    expect(light['--color-background-primary']).toBe(mantine.white);
    expect(dark['--color-background-primary']).toBe(mantine.colors.dark[7]);
    for (const key of ['--color-text-primary', '--color-border-primary', '--color-text-danger', '--color-background-warning'] as const) {
      expect(light[key], key).not.toBe(dark[key]);
    }
    expect(light['--font-sans']).toBe(theme.fontFamily);
    expect(light['--font-text-md-size']).toBe(dark['--font-text-md-size']);
    expect(light['--font-text-md-size']).toBe('calc(1rem * 1)');
    expect(light['--color-ring-primary']).toBe(mantine.colors['brand']?.[7]);
  });

  it('offers font CSS (nothing to load: system fonts)', () => {
    expect(HOST_FONTS_CSS.length).toBeGreaterThan(0);
  });
});
