// Contract handlers for the gateway domain.
import type { GatewayInvokeMap } from '../../../shared/domains/gateway.js';
import type { Handlers } from '../handlers.js';
import type { Host } from '../host.js';

/** The gateway domain's handlers. */
export function gatewayHandlers(host: Host): Pick<Handlers, keyof GatewayInvokeMap> {
  return {
    'gateway.status': async () => host.gateway.status(),
    'gateway.enable': ({ port }) => host.gateway.enable(port),
    'gateway.disable': () => host.gateway.disable(),
    'gateway.clients': async () => host.gateway.clients(),
    'gateway.addClient': ({ name, profile }) => host.gateway.addClient(name, profile),
    'gateway.updateClient': ({ id, name, profile }) =>
      host.gateway.updateClient(id, { ...(name !== undefined ? { name } : {}), ...(profile !== undefined ? { profile } : {}) }),
    'gateway.removeClient': ({ id }) => host.gateway.removeClient(id),
    'gateway.rotateToken': ({ id }) => host.gateway.rotateToken(id),
    'gateway.decide': async ({ requestId, allow, always }) => host.gateway.decide(requestId, allow, always ?? false),
    'gateway.trustTool': ({ id, tool, trusted }) => host.gateway.trustTool(id, tool, trusted),
    'gateway.activity': async ({ limit }) => host.gateway.activity(limit),
    'gateway.setupPreview': (args) => host.gateway.setupPreview(args),
    'gateway.setupInstall': (args) => host.gateway.setupInstall(args),
    'gateway.requestArguments': async ({ requestId }) => host.gateway.requestArguments(requestId),
  };
}
