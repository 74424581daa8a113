// The host context an app receives in `ui/initialize` (and later as changes): theme and the host's colours and
// fonts as the extension's standard CSS variables, locale and time zone, display mode, container size, the tool.
import type { McpUiHostContext, McpUiStyles } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { AppLaunch } from '../../../shared/domains/apps';

/** How the app is shown. */
export type AppDisplayMode = 'inline' | 'fullscreen';

/** What the context is built from. */
export interface HostContextInput {
  launch: AppLaunch;
  theme: 'light' | 'dark';
  displayMode: AppDisplayMode;
  /** The container's width in pixels. */
  width: number;
  /** Fixed height (full screen, own window) or the most the app may grow to (inline). */
  height: { fixed: number } | { max: number };
  shell: 'electron' | 'websocket';
  version: string;
}

/** Standard app variables and the host's own custom properties they come from. */
const VARIABLES: [keyof McpUiStyles, string][] = [
  ['--color-background-primary', '--mantine-color-body'],
  ['--color-background-secondary', '--mantine-color-default-hover'],
  ['--color-text-primary', '--mantine-color-text'],
  ['--color-text-secondary', '--mantine-color-dimmed'],
  ['--color-text-danger', '--mantine-color-error'],
  ['--color-border-primary', '--mantine-color-default-border'],
  ['--font-sans', '--mantine-font-family'],
  ['--font-mono', '--mantine-font-family-monospace'],
  ['--border-radius-sm', '--mantine-radius-sm'],
  ['--border-radius-md', '--mantine-radius-md'],
  ['--border-radius-lg', '--mantine-radius-lg'],
];

/** The host's current colours and fonts as the extension's variables (only those the page defines). */
export function hostStyleVariables(): Partial<McpUiStyles> {
  const style = getComputedStyle(document.documentElement);
  const out: Partial<McpUiStyles> = {};
  for (const [key, source] of VARIABLES) {
    const value = style.getPropertyValue(source).trim();
    if (value) out[key] = value;
  }
  return out;
}

/** The full host context for one app. */
export function buildHostContext(input: HostContextInput): McpUiHostContext {
  const { launch } = input;
  const containerDimensions =
    'fixed' in input.height ? { width: input.width, height: input.height.fixed } : { width: input.width, maxHeight: input.height.max };
  return {
    toolInfo: { id: launch.call.callId, tool: { ...launch.toolInfo, inputSchema: { type: 'object', ...launch.toolInfo.inputSchema } } },
    theme: input.theme,
    styles: { variables: hostStyleVariables() as McpUiStyles },
    displayMode: input.displayMode,
    availableDisplayModes: ['inline', 'fullscreen'],
    containerDimensions,
    locale: navigator.language,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    userAgent: `Switchboard/${input.version}`,
    platform: input.shell === 'electron' ? 'desktop' : 'web',
    deviceCapabilities: { hover: window.matchMedia?.('(hover: hover)').matches ?? true, touch: 'ontouchstart' in window },
  };
}
