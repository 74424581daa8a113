// MCP Apps in the store: a server's apps and grants (server page), and the actions an app frame uses to open,
// talk to its server through the core, and close.
import type {
  AppGrants,
  AppLaunch,
  AppLinkCheck,
  AppResourceTemplate,
  AppSamplingResult,
  AppToolResult,
  ServerApps,
} from '../../../shared/domains/apps';
import type { ResourceItem } from '../../../shared/domains/resources';
import { AppError } from '../../../shared/errors';
import { appsService } from '../services/apps';
import type { SliceCreator, Store } from './types';

/** MCP Apps state and actions. */
export interface AppsSlice {
  /** Apps, app-only tools and grants by server id. */
  serverApps: Record<string, ServerApps>;
  /** Why loading or saving a server's apps failed. */
  serverAppsError: Record<string, string>;
  loadServerApps: (serverId: string) => Promise<void>;
  setAppGrants: (serverId: string, grants: AppGrants) => Promise<boolean>;
  /** Has the core read a tool's app while its call runs (best effort). */
  prefetchApp: (tool: string) => void;
  /** Opens a launch for a finished call; rejects with the AppError to show in place of the app. */
  openApp: (callId: string) => Promise<AppLaunch>;
  closeApp: (launchId: string) => Promise<void>;
  appCallTool: (launchId: string, name: string, args: Record<string, unknown>) => Promise<AppToolResult>;
  appReadResource: (launchId: string, uri: string) => Promise<{ contents: Record<string, unknown>[] }>;
  /** An app's resources/list: one page of its own server's resources. */
  appListResources: (launchId: string, cursor?: string) => Promise<{ resources: ResourceItem[]; nextCursor?: string }>;
  /** An app's resources/templates/list: its own server's resource templates. */
  appListResourceTemplates: (launchId: string) => Promise<{ resourceTemplates: AppResourceTemplate[] }>;
  /** The core's URL policy on a link an app asks to open (what the consent dialog shows). */
  appCheckLink: (launchId: string, url: string) => Promise<AppLinkCheck>;
  appOpenLink: (launchId: string, url: string) => Promise<void>;
  /** An app's sampling/createMessage: answered by hand in the sampling dialog, marked as the app's. */
  appCreateMessage: (launchId: string, params: Record<string, unknown>) => Promise<AppSamplingResult>;
  /** Shows a call's app in a window of its own: a browser tab in headless mode, a window in the desktop app. */
  openAppWindow: (callId: string) => Promise<void>;
  /** Which shell runs the renderer: the desktop app has windows, headless mode has browser tabs. */
  appShell: () => 'electron' | 'websocket';
  /** A server's app grants changed (apps.grantsChanged). */
  applyGrantsChanged: (serverId: string, grants: AppGrants) => void;
}

export const appsInitialState = {
  serverApps: {},
  serverAppsError: {},
} satisfies Partial<AppsSlice>;

/** The fragment that shows one call's app on its own (#/app/<callId>). */
export const appWindowHash = (callId: string): string => `#/app/${encodeURIComponent(callId)}`;

export const createAppsSlice: SliceCreator<AppsSlice> = (set, get) => ({
  ...appsInitialState,

  loadServerApps: async (serverId) => {
    try {
      const apps = await appsService.server(serverId);
      set((s) => ({ serverApps: { ...s.serverApps, [serverId]: apps }, serverAppsError: omit(s.serverAppsError, serverId) }));
    } catch (err) {
      set((s) => ({ serverAppsError: { ...s.serverAppsError, [serverId]: message(err) } }));
    }
  },

  setAppGrants: async (serverId, grants) => {
    try {
      const stored = await appsService.setGrants(serverId, grants);
      const current = get().serverApps[serverId];
      if (current) set((s) => ({ serverApps: { ...s.serverApps, [serverId]: { ...current, grants: stored } } }));
      return true;
    } catch (err) {
      set((s) => ({ serverAppsError: { ...s.serverAppsError, [serverId]: message(err) } }));
      return false;
    }
  },

  prefetchApp: (tool) => {
    appsService.prefetch(tool).catch(() => undefined);
  },
  openApp: (callId) => appsService.open(callId),
  closeApp: async (launchId) => {
    await appsService.close(launchId).catch(() => undefined);
  },
  appCallTool: async (launchId, name, args) => {
    // The app's call reaches the history through call.finished (marked "from app").
    return appsService.callTool(launchId, name, args);
  },
  appReadResource: (launchId, uri) => appsService.readResource(launchId, uri),
  appListResources: (launchId, cursor) => appsService.listResources(launchId, cursor),
  appListResourceTemplates: (launchId) => appsService.listResourceTemplates(launchId),
  appCheckLink: (launchId, url) => appsService.checkLink(launchId, url),
  appOpenLink: async (launchId, url) => {
    const opened = await appsService.openLink(launchId, url);
    // Headless mode's core only prints the link; the person's browser is right here.
    if (appsService.shell() === 'websocket') window.open(opened.url, '_blank', 'noopener,noreferrer');
  },
  appCreateMessage: (launchId, params) => appsService.createMessage(launchId, params),
  openAppWindow: async (callId) => {
    if (appsService.shell() === 'electron') return appsService.openWindow(callId);
    // A new tab of this renderer (it shares this tab's session, so it reaches the core the same way).
    window.open(`${window.location.pathname}${appWindowHash(callId)}`, '_blank');
  },
  appShell: () => appsService.shell(),
  applyGrantsChanged: (serverId, grants) => {
    const current = get().serverApps[serverId];
    if (current) set((s) => ({ serverApps: { ...s.serverApps, [serverId]: { ...current, grants } } }));
  },
});

function message(err: unknown): string {
  return err instanceof AppError ? err.message : 'Something went wrong';
}

function omit(record: Record<string, string>, key: string): Record<string, string> {
  const { [key]: _drop, ...rest } = record;
  return rest;
}

/** A server's apps, when loaded. */
export const selectServerApps =
  (serverId: string) =>
  (s: Store): ServerApps | undefined =>
    s.serverApps[serverId];
