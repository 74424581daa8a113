// One handler per contract method, each a thin call into the core (the Host facade and its services).
import type { BridgeApi } from '../../shared/contract.js';
import { authHandlers, forgetCredentials } from './auth/auth-handlers.js';
import { callHandlers } from './calls/call-handlers.js';
import { catalogHandlers } from './catalog/catalog-handlers.js';
import type { Host } from './host.js';
import { addWithBearer } from './import/bearer.js';
import { openableUrl } from './elicitation/url-opener.js';
import { resourceHandlers } from './resources/resource-handlers.js';
import { appsHandlers } from './apps/apps-handlers.js';
import { eventsHandlers } from './events/events-handlers.js';
import { gatewayHandlers } from './gateway/gateway-handlers.js';
import { protocolHandlers } from './protocol/protocol-handlers.js';
import { registryHandlers } from './registry/registry-handlers.js';
import { runDoctorWalk } from './doctor/doctor-walk.js';
import { skillsHandlers } from './skills/skills-handlers.js';

/** The complete handler table; a missing or extra key is a compile error. */
export type Handlers = BridgeApi;

/** Binds every contract method to the core. */
export function createHandlers(host: Host): Handlers {
  return {
    'app.info': async () => host.info(),
    'app.dismissNotice': async ({ id }) => host.dismissNotice(id),
    // The shell's bridge acts on it (Electron flushes the events it held back); nothing for the core to do.
    'app.listening': async () => undefined,
    'app.leftovers': async () => host.processes.leftovers(),
    'app.endLeftovers': ({ pgids }) => host.endLeftovers(pgids),
    'app.telemetry': async () => host.telemetrySetting.state(),
    'app.setTelemetry': async ({ endpoint, enabled }) => host.telemetrySetting.set(endpoint, enabled),
    // A link the person clicked goes through the one URL policy (https, plain http only to this machine, no user info,
    // no control or bidi characters) before the opener sees it.
    'app.openLink': ({ url }) => host.interaction.urlOpener.open(openableUrl(url)),
    'servers.list': async () => host.list(),
    'servers.get': ({ id }) => host.get(id),
    'servers.add': ({ config, bearerToken }) => addWithBearer(host, config, bearerToken),
    'servers.update': ({ id, config }) => host.update(id, config),
    'servers.remove': async ({ id, deleteCredentials }) => {
      host.config(id);
      if (deleteCredentials) await forgetCredentials(host.auth, id);
      await host.remove(id);
    },
    'servers.importPreview': async ({ text, format }) => host.importPreview(text, format),
    'servers.import': (args) => host.import(args),
    'servers.export': async ({ format, ids }) => host.exportServers(format, ids),
    'servers.addDemo': () => host.addDemo(),
    'servers.connect': ({ id }) => (host.config(id), host.sessions.connect(id)),
    'servers.disconnect': ({ id }) => (host.config(id), host.sessions.disconnect(id)),
    'servers.restart': ({ id }) => (host.config(id), host.sessions.restart(id)),
    'servers.approve': ({ id, fingerprint }) => host.approve(id, fingerprint),
    'servers.status': async ({ id }) => host.status(id),
    'servers.logs': async ({ id }) => host.logs(id),
    'servers.test': (args) => runDoctorWalk(host, args, host.doctor),
    ...catalogHandlers(host),
    ...callHandlers(host),
    ...authHandlers(host),
    ...resourceHandlers(host),
    ...eventsHandlers(host),
    ...gatewayHandlers(host),
    ...appsHandlers(host),
    ...registryHandlers(host),
    ...protocolHandlers(host),
    ...skillsHandlers(host),
  };
}
