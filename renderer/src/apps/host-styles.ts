// The host's look as the extension's 76 standard style variables, from the current Mantine theme in either colour
// scheme: colours from the theme's palettes (the shades Mantine itself uses for body, text, borders and the light
// variants), fonts, sizes, line heights, weights, radii and shadows from its scales. Every value is self-contained
// CSS (the theme's `var(--mantine-scale)` is resolved), since the app's document has none of the host's properties.
import { alpha, type MantineTheme } from '@mantine/core';
import type { McpUiStyleVariableKey, McpUiStyles } from '@modelcontextprotocol/ext-apps/app-bridge';

/** A colour scheme. */
export type ColorScheme = 'light' | 'dark';

/** Every standard variable, in the extension's order (the type's union, kept as a list for checks). */
export const STYLE_VARIABLES: readonly McpUiStyleVariableKey[] = [
  ...(['background', 'text', 'border'] as const).flatMap((kind) =>
    (['primary', 'secondary', 'tertiary', 'inverse', 'ghost', 'info', 'danger', 'success', 'warning', 'disabled'] as const).map(
      (tone) => `--color-${kind}-${tone}` as McpUiStyleVariableKey,
    ),
  ),
  ...(['primary', 'secondary', 'inverse', 'info', 'danger', 'success', 'warning'] as const).map(
    (t) => `--color-ring-${t}` as McpUiStyleVariableKey,
  ),
  '--font-sans',
  '--font-mono',
  '--font-weight-normal',
  '--font-weight-medium',
  '--font-weight-semibold',
  '--font-weight-bold',
  ...(['xs', 'sm', 'md', 'lg'] as const).map((s) => `--font-text-${s}-size` as McpUiStyleVariableKey),
  ...HEADINGS().map((s) => `--font-heading-${s}-size` as McpUiStyleVariableKey),
  ...(['xs', 'sm', 'md', 'lg'] as const).map((s) => `--font-text-${s}-line-height` as McpUiStyleVariableKey),
  ...HEADINGS().map((s) => `--font-heading-${s}-line-height` as McpUiStyleVariableKey),
  ...(['xs', 'sm', 'md', 'lg', 'xl', 'full'] as const).map((s) => `--border-radius-${s}` as McpUiStyleVariableKey),
  '--border-width-regular',
  '--shadow-hairline',
  '--shadow-sm',
  '--shadow-md',
  '--shadow-lg',
];

/** The heading sizes of the extension, smallest first, and the Mantine heading each comes from (3xl: h1 enlarged). */
function HEADINGS(): readonly ('xs' | 'sm' | 'md' | 'lg' | 'xl' | '2xl' | '3xl')[] {
  return ['xs', 'sm', 'md', 'lg', 'xl', '2xl', '3xl'];
}
const HEADING_OF = { xs: 'h6', sm: 'h5', md: 'h4', lg: 'h3', xl: 'h2', '2xl': 'h1', '3xl': 'h1' } as const;

/** CSS fonts to load: Switchboard uses the system's own fonts, so there is nothing to fetch. */
export const HOST_FONTS_CSS = '/* Switchboard uses the system fonts named in --font-sans and --font-mono: nothing to load. */';

/** The 76 variables for `theme` in `scheme`. */
export function hostStyleVariables(theme: MantineTheme, scheme: ColorScheme): McpUiStyles {
  const css = (value: string): string => value.replace(/var\(--mantine-scale\)/g, String(theme.scale));
  const c = theme.colors;
  const dark = scheme === 'dark';
  const pick = (light: string, darkValue: string): string => (dark ? darkValue : light);
  const primaryShade = typeof theme.primaryShade === 'number' ? theme.primaryShade : theme.primaryShade[scheme];
  const primary = c[theme.primaryColor]![primaryShade]!;
  // The text, tinted background and border of a status, as Mantine's light variant draws them.
  const tone = (name: 'blue' | 'red' | 'green' | 'yellow'): { text: string; background: string; border: string; ring: string } => {
    const p = c[name]!;
    return {
      text: pick(p[name === 'yellow' ? 9 : 8]!, p[4]!),
      background: pick(p[0]!, alpha(p[8]!, 0.2)),
      border: pick(p[4]!, p[7]!),
      ring: pick(p[6]!, p[5]!),
    };
  };
  const info = tone('blue');
  const danger = tone('red');
  const success = tone('green');
  const warning = tone('yellow');
  const body = pick(theme.white, c['dark']![7]!);
  const text = pick(theme.black, c['dark']![0]!);
  const border = pick(c['gray']![3]!, c['dark']![4]!);
  const size = (s: 'xs' | 'sm' | 'md' | 'lg'): string => css(theme.fontSizes[s]);
  const heading = (s: keyof typeof HEADING_OF): { fontSize: string; lineHeight: string } => {
    const h = theme.headings.sizes[HEADING_OF[s]];
    return { fontSize: s === '3xl' ? `calc(${css(h.fontSize)} * 1.25)` : css(h.fontSize), lineHeight: String(h.lineHeight ?? '1.3') };
  };
  const shadow = (s: 'sm' | 'md' | 'lg'): string =>
    css(theme.shadows[s]).replace(/rgba\(0, 0, 0, 0\.0(\d)\)/g, (m, d: string) => (dark ? `rgba(0, 0, 0, 0.${Number(d) * 4})` : m));

  const v: Record<string, string> = {
    '--color-background-primary': body,
    '--color-background-secondary': pick(c['gray']![0]!, c['dark']![6]!),
    '--color-background-tertiary': pick(c['gray']![1]!, c['dark']![5]!),
    '--color-background-inverse': pick(c['dark']![7]!, c['gray']![0]!),
    '--color-background-ghost': 'transparent',
    '--color-background-info': info.background,
    '--color-background-danger': danger.background,
    '--color-background-success': success.background,
    '--color-background-warning': warning.background,
    '--color-background-disabled': pick(c['gray']![2]!, c['dark']![6]!),
    '--color-text-primary': text,
    '--color-text-secondary': pick(c['gray']![7]!, c['dark']![1]!),
    '--color-text-tertiary': pick(c['gray']![6]!, c['dark']![2]!),
    '--color-text-inverse': pick(theme.white, c['dark']![7]!),
    '--color-text-ghost': pick(c['gray']![5]!, c['dark']![3]!),
    '--color-text-info': info.text,
    '--color-text-danger': danger.text,
    '--color-text-success': success.text,
    '--color-text-warning': warning.text,
    '--color-text-disabled': pick(c['gray']![5]!, c['dark']![3]!),
    '--color-border-primary': border,
    '--color-border-secondary': pick(c['gray']![2]!, c['dark']![5]!),
    '--color-border-tertiary': pick(c['gray']![1]!, c['dark']![6]!),
    '--color-border-inverse': pick(c['dark']![7]!, c['gray']![0]!),
    '--color-border-ghost': 'transparent',
    '--color-border-info': info.border,
    '--color-border-danger': danger.border,
    '--color-border-success': success.border,
    '--color-border-warning': warning.border,
    '--color-border-disabled': pick(c['gray']![2]!, c['dark']![5]!),
    '--color-ring-primary': primary,
    '--color-ring-secondary': pick(c['gray']![5]!, c['dark']![2]!),
    '--color-ring-inverse': pick(theme.white, c['dark']![7]!),
    '--color-ring-info': info.ring,
    '--color-ring-danger': danger.ring,
    '--color-ring-success': success.ring,
    '--color-ring-warning': warning.ring,
    '--font-sans': theme.fontFamily ?? 'system-ui, sans-serif',
    '--font-mono': theme.fontFamilyMonospace ?? 'ui-monospace, monospace',
    '--font-weight-normal': '400',
    '--font-weight-medium': '500',
    '--font-weight-semibold': '600',
    '--font-weight-bold': '700',
    '--border-radius-xs': css(theme.radius.xs),
    '--border-radius-sm': css(theme.radius.sm),
    '--border-radius-md': css(theme.radius.md),
    '--border-radius-lg': css(theme.radius.lg),
    '--border-radius-xl': css(theme.radius.xl),
    '--border-radius-full': '9999px',
    '--border-width-regular': `${theme.scale}px`,
    '--shadow-hairline': `0 0 0 1px ${border}`,
    '--shadow-sm': shadow('sm'),
    '--shadow-md': shadow('md'),
    '--shadow-lg': shadow('lg'),
  };
  for (const s of ['xs', 'sm', 'md', 'lg'] as const) {
    v[`--font-text-${s}-size`] = size(s);
    v[`--font-text-${s}-line-height`] = String(theme.lineHeights[s]);
  }
  for (const s of HEADINGS()) {
    const h = heading(s);
    v[`--font-heading-${s}-size`] = h.fontSize;
    v[`--font-heading-${s}-line-height`] = h.lineHeight;
  }
  return Object.fromEntries(STYLE_VARIABLES.map((k) => [k, v[k]])) as McpUiStyles;
}
