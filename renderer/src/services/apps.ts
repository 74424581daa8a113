// MCP Apps calls into the core; the only place the apps UI reaches the bridge.
import type { AppGrants } from '../../../shared/domains/apps';
import type { EventMap } from '../../../shared/contract';
import { bridge } from '../bridge';

export const appsService = {
  open: (callId: string) => bridge().api['apps.open']({ callId }),
  prefetch: (tool: string) => bridge().api['apps.prefetch']({ tool }),
  close: (launchId: string) => bridge().api['apps.close']({ launchId }),
  callTool: (launchId: string, name: string, args: Record<string, unknown>) =>
    bridge().api['apps.callTool']({ launchId, name, arguments: args }),
  readResource: (launchId: string, uri: string) => bridge().api['apps.readResource']({ launchId, uri }),
  listResources: (launchId: string, cursor?: string) =>
    bridge().api['apps.listResources']({ launchId, ...(cursor !== undefined ? { cursor } : {}) }),
  listResourceTemplates: (launchId: string) => bridge().api['apps.listResourceTemplates']({ launchId }),
  checkLink: (launchId: string, url: string) => bridge().api['apps.checkLink']({ launchId, url }),
  openLink: (launchId: string, url: string) => bridge().api['apps.openLink']({ launchId, url }),
  createMessage: (launchId: string, params: Record<string, unknown>) => bridge().api['apps.createMessage']({ launchId, params }),
  openWindow: (callId: string) => bridge().api['apps.openWindow']({ callId }),
  server: (serverId: string) => bridge().api['apps.server']({ serverId }),
  setGrants: (serverId: string, grants: AppGrants) => bridge().api['apps.setGrants']({ serverId, grants }),
  onGrantsChanged: (listener: (payload: EventMap['apps.grantsChanged']) => void) => bridge().on('apps.grantsChanged', listener),
  /** Which shell runs the renderer: the desktop app has windows, headless mode has browser tabs. */
  shell: (): 'electron' | 'websocket' => bridge().kind,
};
