// Contract handlers for the gateway domain.
import type { GatewayInvokeMap } from '../../../shared/domains/gateway.js';
import type { Handlers } from '../handlers.js';
import type { Host } from '../host.js';

/** The gateway domain's handlers. */
export function gatewayHandlers(_host: Host): Pick<Handlers, keyof GatewayInvokeMap> {
  return {};
}
