// Gateway calls into the core; the only place gateway actions reach the bridge.
import type { EventMap } from '../../../shared/contract';
import type { GatewayProfile, GatewaySetupArgs } from '../../../shared/domains/gateway';
import { bridge } from '../bridge';

export const gatewayService = {
  status: () => bridge().api['gateway.status']({}),
  enable: (port?: number) => bridge().api['gateway.enable'](port === undefined ? {} : { port }),
  disable: () => bridge().api['gateway.disable']({}),
  clients: () => bridge().api['gateway.clients']({}),
  addClient: (name: string, profile: GatewayProfile) => bridge().api['gateway.addClient']({ name, profile }),
  updateClient: (id: string, changes: { name?: string; profile?: GatewayProfile }) =>
    bridge().api['gateway.updateClient']({ id, ...changes }),
  removeClient: (id: string) => bridge().api['gateway.removeClient']({ id }),
  rotateToken: (id: string) => bridge().api['gateway.rotateToken']({ id }),
  decide: (requestId: string, allow: boolean, always = false) =>
    bridge().api['gateway.decide']({ requestId, allow, ...(always ? { always } : {}) }),
  trustTool: (id: string, tool: string, trusted: boolean) => bridge().api['gateway.trustTool']({ id, tool, trusted }),
  activity: (limit?: number) => bridge().api['gateway.activity'](limit === undefined ? {} : { limit }),
  setupPreview: (args: GatewaySetupArgs) => bridge().api['gateway.setupPreview'](args),
  setupInstall: (args: GatewaySetupArgs) => bridge().api['gateway.setupInstall'](args),
  requestArguments: (requestId: string) => bridge().api['gateway.requestArguments']({ requestId }),
  onRequest: (listener: (payload: EventMap['gateway.request']) => void) => bridge().on('gateway.request', listener),
  onActivity: (listener: (payload: EventMap['gateway.activity']) => void) => bridge().on('gateway.activity', listener),
};
