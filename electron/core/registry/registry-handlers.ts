// Contract handlers for the registry domain.
import type { RegistryInvokeMap } from '../../../shared/domains/registry.js';
import type { Handlers } from '../handlers.js';
import type { Host } from '../host.js';

/** The registry domain's handlers. */
export function registryHandlers(_host: Host): Pick<Handlers, keyof RegistryInvokeMap> {
  return {};
}
