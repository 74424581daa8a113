// The host context an app receives in `ui/initialize` (and later as changes): theme and all of the extension's
// standard style variables, font CSS, locale and time zone, platform and device capabilities, safe-area insets,
// display mode, container size, the tool.
import type { MantineTheme } from '@mantine/core';
import type { McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { AppLaunch } from '../../../shared/domains/apps';
import { HOST_FONTS_CSS, hostStyleVariables } from './host-styles';

/** How the app is shown. */
export type AppDisplayMode = 'inline' | 'fullscreen' | 'pip';

/** What the context is built from. */
export interface HostContextInput {
  launch: AppLaunch;
  theme: 'light' | 'dark';
  /** The Mantine theme the variables come from. */
  mantine: MantineTheme;
  displayMode: AppDisplayMode;
  /** The modes the host can put this app in from where it is shown. */
  availableDisplayModes: AppDisplayMode[];
  /** The container's width in pixels. */
  width: number;
  /** Fixed height (full screen, own window) or the most the app may grow to (inline). */
  height: { fixed: number } | { max: number };
  shell: 'electron' | 'websocket';
  version: string;
}

/** The full host context for one app. */
export function buildHostContext(input: HostContextInput): McpUiHostContext {
  const { launch } = input;
  const containerDimensions =
    'fixed' in input.height ? { width: input.width, height: input.height.fixed } : { width: input.width, maxHeight: input.height.max };
  return {
    toolInfo: { id: launch.call.callId, tool: { ...launch.toolInfo, inputSchema: { type: 'object', ...launch.toolInfo.inputSchema } } },
    theme: input.theme,
    styles: { variables: hostStyleVariables(input.mantine, input.theme), css: { fonts: HOST_FONTS_CSS } },
    displayMode: input.displayMode,
    availableDisplayModes: input.availableDisplayModes,
    containerDimensions,
    locale: navigator.language,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    userAgent: `Switchboard/${input.version}`,
    platform: input.shell === 'electron' ? 'desktop' : 'web',
    deviceCapabilities: { hover: window.matchMedia?.('(hover: hover)').matches ?? true, touch: 'ontouchstart' in window },
    // The app's frame sits inside the host's page, never under a notch or a system bar.
    safeAreaInsets: { top: 0, right: 0, bottom: 0, left: 0 },
  };
}
