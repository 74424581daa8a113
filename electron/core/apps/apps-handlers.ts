// Contract handlers for the apps domain.
import type { AppsInvokeMap } from '../../../shared/domains/apps.js';
import type { Handlers } from '../handlers.js';
import type { Host } from '../host.js';

/** The apps domain's handlers. */
export function appsHandlers(_host: Host): Pick<Handlers, keyof AppsInvokeMap> {
  return {};
}
