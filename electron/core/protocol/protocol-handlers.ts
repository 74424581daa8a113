// Contract handlers for the protocol domain: traffic, client features, elicitation consent, roots, sampling.
import type { ProtocolInvokeMap } from '../../../shared/domains/protocol.js';
import { listTasks, serverListsTasks } from '../calls/legacy-tasks.js';
import type { Handlers } from '../handlers.js';
import type { Host } from '../host.js';

/** The protocol domain's handlers. */
export function protocolHandlers(host: Host): Pick<Handlers, keyof ProtocolInvokeMap> {
  const f = host.clientFeatures;
  return {
    'protocol.traffic': async ({ limit, ...filter }) => {
      if (filter.serverId !== undefined) host.config(filter.serverId);
      return f.traffic.entries(filter, limit);
    },
    'protocol.clear': async ({ serverId }) => {
      if (serverId !== undefined) host.config(serverId);
      f.traffic.clear(serverId);
    },
    'protocol.features': async ({ id }) => f.view(id),
    'protocol.setFeatures': ({ id, ...patch }) => f.setFeatures(id, patch),
    'protocol.setConsent': async ({ id, consent }) => f.setConsent(id, consent),
    'roots.set': ({ id, roots }) => f.setRoots(id, roots),
    'protocol.tasks': async ({ id, cursor }) => {
      const config = host.config(id);
      const client = await host.sessions.client(id);
      if (!serverListsTasks(client)) return { supported: false, tasks: [] };
      const page = await listTasks(client, { timeoutMs: config.timeouts.requestSecs * 1000, ...(cursor ? { cursor } : {}) });
      return { supported: true, ...page };
    },
    'sampling.pending': async () => f.sampling.pending(),
    'sampling.respond': async ({ requestId, action, reply }) => f.sampling.respond(requestId, action, reply),
  };
}
