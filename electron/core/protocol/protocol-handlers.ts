// Contract handlers for the protocol domain.
import type { ProtocolInvokeMap } from '../../../shared/domains/protocol.js';
import type { Handlers } from '../handlers.js';
import type { Host } from '../host.js';

/** The protocol domain's handlers. */
export function protocolHandlers(_host: Host): Pick<Handlers, keyof ProtocolInvokeMap> {
  return {};
}
