// Registry calls into the core: sources, search, prepare and install, updates, install links. The only place
// registry.* reaches the bridge. Secret values go in (install) and never come back.
import type { InstallValues, PrepareTarget } from '../../../shared/domains/registry';
import { bridge } from '../bridge';

export const registryService = {
  sources: () => bridge().api['registry.sources']({}),
  addSource: (url: string) => bridge().api['registry.addSource']({ url }),
  removeSource: (url: string) => bridge().api['registry.removeSource']({ url }),
  search: (args: { query: string; cursor?: string; source?: string; limit?: number }) => bridge().api['registry.search'](args),
  prepare: (target: PrepareTarget, choice?: number, values?: InstallValues) =>
    bridge().api['registry.prepare']({ ...target, ...(choice !== undefined ? { choice } : {}), ...(values ? { values } : {}) }),
  install: (target: PrepareTarget, opts: { choice?: number; values?: InstallValues; id?: string; displayName?: string }) =>
    bridge().api['registry.install']({ ...target, ...opts }),
  updates: () => bridge().api['registry.updates']({}),
  sync: (source?: string) => bridge().api['registry.sync'](source !== undefined ? { source } : {}),
  previewUpdate: (id: string) => bridge().api['registry.previewUpdate']({ id }),
  applyUpdate: (id: string, version: string, values?: InstallValues) =>
    bridge().api['registry.applyUpdate']({ id, version, ...(values ? { values } : {}) }),
  parseInstall: (text: string) => bridge().api['registry.parseInstall']({ text }),
  takeLinks: () => bridge().api['registry.takeLinks']({}),
  openLink: (url: string) => bridge().api['registry.openLink']({ url }),
};
