// Contract handlers for the apps domain: thin calls into the Host's apps service (an app's resource listings go
// through the host's bounded resource listings, scoped to the launch's server).
import type { AppsInvokeMap } from '../../../shared/domains/apps.js';
import type { Handlers } from '../handlers.js';
import type { Host } from '../host.js';
import { listAppResources, listAppResourceTemplates, type AppResourcesDeps } from './app-resources.js';

/** The apps domain's handlers. */
export function appsHandlers(host: Host): Pick<Handlers, keyof AppsInvokeMap> {
  const resources: AppResourcesDeps = {
    launch: (id) => host.apps.openLaunch(id),
    list: (serverId, cursor) => host.interaction.resources.list(serverId, cursor),
    templates: (serverId) => host.interaction.resources.templates(serverId),
  };
  return {
    'apps.open': ({ callId }) => host.apps.open(callId),
    'apps.prefetch': ({ tool }) => host.apps.prefetch(tool),
    'apps.close': async ({ launchId }) => host.apps.close(launchId),
    'apps.callTool': ({ launchId, name, arguments: args }) => host.apps.callTool(launchId, name, args ?? {}),
    'apps.readResource': ({ launchId, uri }) => host.apps.readResource(launchId, uri),
    'apps.listResources': ({ launchId, cursor }) => listAppResources(resources, launchId, cursor),
    'apps.listResourceTemplates': ({ launchId }) => listAppResourceTemplates(resources, launchId),
    'apps.checkLink': async ({ launchId, url }) => host.apps.checkLink(launchId, url),
    'apps.openLink': ({ launchId, url }) => host.apps.openLink(launchId, url),
    'apps.createMessage': ({ launchId, params }) => host.apps.createMessage(launchId, params),
    'apps.openWindow': ({ callId }) => host.apps.openWindow(callId),
    'apps.server': async ({ serverId }) => host.apps.server(serverId),
    'apps.setGrants': async ({ serverId, grants }) => host.apps.setGrants(serverId, grants),
  };
}
