// MCP Apps in the store: a server's apps and grants (server page), and the actions an app frame uses to open,
// talk to its server through the core, and close.
import type { AppGrants, AppLaunch, AppLinkCheck, AppResourceTemplate, AppToolResult, ServerApps } from '../../../shared/domains/apps';
import type { ResourceItem } from '../../../shared/domains/resources';
import { AppError } from '../../../shared/errors';
import type { SliceCreator, Store } from './types';
import { api, bridgeKind, onEvent } from '../bridge';

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
  /** Shows a call's app in a window of its own: a browser tab in headless mode, a window in the desktop app. */
  openAppWindow: (callId: string) => Promise<void>;
}

let grantsSubscribed = false;

/** The fragment that shows one call's app on its own (#/app/<callId>). */
export const appWindowHash = (callId: string): string => `#/app/${encodeURIComponent(callId)}`;

export const createAppsSlice: SliceCreator<AppsSlice> = (set, get) => ({
  serverApps: {},
  serverAppsError: {},

  loadServerApps: async (serverId) => {
    if (!grantsSubscribed) {
      grantsSubscribed = true;
      onEvent('apps.grantsChanged', ({ serverId: id, grants }) => {
        const current = get().serverApps[id];
        if (current) set((s) => ({ serverApps: { ...s.serverApps, [id]: { ...current, grants } } }));
      });
    }
    try {
      const apps = await api['apps.server']({ serverId });
      set((s) => ({ serverApps: { ...s.serverApps, [serverId]: apps }, serverAppsError: omit(s.serverAppsError, serverId) }));
    } catch (err) {
      set((s) => ({ serverAppsError: { ...s.serverAppsError, [serverId]: message(err) } }));
    }
  },

  setAppGrants: async (serverId, grants) => {
    try {
      const stored = await api['apps.setGrants']({ serverId, grants });
      const current = get().serverApps[serverId];
      if (current) set((s) => ({ serverApps: { ...s.serverApps, [serverId]: { ...current, grants: stored } } }));
      return true;
    } catch (err) {
      set((s) => ({ serverAppsError: { ...s.serverAppsError, [serverId]: message(err) } }));
      return false;
    }
  },

  prefetchApp: (tool) => {
    api['apps.prefetch']({ tool }).catch(() => undefined);
  },
  openApp: (callId) => api['apps.open']({ callId }),
  closeApp: async (launchId) => {
    await api['apps.close']({ launchId }).catch(() => undefined);
  },
  appCallTool: async (launchId, name, args) => {
    const result = await api['apps.callTool']({ launchId, name, arguments: args });
    // The app's call is in the history now (marked "from app").
    if (get().history.loaded) void get().loadHistory();
    return result;
  },
  appReadResource: (launchId, uri) => api['apps.readResource']({ launchId, uri }),
  appListResources: (launchId, cursor) => api['apps.listResources']({ launchId, ...(cursor !== undefined ? { cursor } : {}) }),
  appListResourceTemplates: (launchId) => api['apps.listResourceTemplates']({ launchId }),
  appCheckLink: (launchId, url) => api['apps.checkLink']({ launchId, url }),
  appOpenLink: async (launchId, url) => {
    const opened = await api['apps.openLink']({ launchId, url });
    // Headless mode's core only prints the link; the person's browser is right here.
    if (bridgeKind() === 'websocket') window.open(opened.url, '_blank', 'noopener,noreferrer');
  },
  openAppWindow: async (callId) => {
    if (bridgeKind() === 'electron') return api['apps.openWindow']({ callId });
    // A new tab of this renderer (it shares this tab's session, so it reaches the core the same way).
    window.open(`${window.location.pathname}${appWindowHash(callId)}`, '_blank');
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
