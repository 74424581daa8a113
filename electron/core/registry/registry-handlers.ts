// Contract handlers for the registry domain: thin calls into the core's RegistryService.
import type { RegistryInvokeMap } from '../../../shared/domains/registry.js';
import type { Handlers } from '../handlers.js';
import type { Host } from '../host.js';

/** The registry domain's handlers. */
export function registryHandlers(host: Host): Pick<Handlers, keyof RegistryInvokeMap> {
  const registry = (): Host['registry'] => host.registry;
  return {
    'registry.sources': async () => registry().sources(),
    'registry.addSource': async ({ url }) => registry().addSource(url),
    'registry.removeSource': async ({ url }) => registry().removeSource(url),
    'registry.search': (args) => registry().search(args),
    'registry.prepare': (args) => registry().prepare(args),
    'registry.install': (args) => registry().install(args),
    'registry.updates': () => registry().updates(),
    'registry.sync': ({ source }) => registry().sync(source),
    'registry.previewUpdate': ({ id }) => registry().previewUpdate(id),
    'registry.applyUpdate': ({ id, version, values }) => registry().applyUpdate(id, version, values),
    'registry.parseInstall': ({ text }) => registry().parseInstall(text),
    'registry.takeLinks': async () => registry().takeLinks(),
    'registry.openLink': ({ url }) => registry().openLink(url),
  };
}
