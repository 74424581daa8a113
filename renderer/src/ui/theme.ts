// The app's Mantine theme: one place for colours, radius, fonts and component defaults.
import { createTheme, type MantineColorsTuple } from '@mantine/core';

// A calm indigo as the brand colour; shades chosen for WCAG AA contrast of white text on 6–9.
const brand: MantineColorsTuple = [
  '#eef0ff',
  '#dcdefa',
  '#b6baf0',
  '#8d93e6',
  '#6b72dd',
  '#555dd8',
  '#4951d6',
  '#3a42be',
  '#323aab',
  '#272f97',
];

/** The Switchboard theme (light and dark share it; Mantine derives the dark variants). */
export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: { light: 7, dark: 5 },
  colors: { brand },
  defaultRadius: 'sm',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, Ubuntu, Cantarell, "Noto Sans", sans-serif',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace',
  headings: { fontWeight: '600' },
  cursorType: 'pointer',
  components: {
    // One clear hierarchy: filled = the one primary action of an area; default (outlined) = secondary;
    // red = destructive; subtle = tertiary actions inside rows.
    Button: { defaultProps: { variant: 'default' } },
    ActionIcon: { defaultProps: { variant: 'subtle' } },
    Tooltip: { defaultProps: { withArrow: true, openDelay: 300 } },
    Modal: { defaultProps: { centered: true, returnFocus: true, trapFocus: true } },
  },
});
