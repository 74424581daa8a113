// Server-related calls into the core; the only place components' actions reach the bridge.
import type { ServerConfigInput } from '../../../shared/config';
import type { ImportFormat } from '../../../shared/contract';
import { bridge } from '../bridge';

export const serversService = {
  list: () => bridge().api['servers.list']({}),
  get: (id: string) => bridge().api['servers.get']({ id }),
  add: (config: ServerConfigInput, bearerToken?: string) =>
    bridge().api['servers.add']({ config, ...(bearerToken !== undefined ? { bearerToken } : {}) }),
  update: (id: string, config: ServerConfigInput) => bridge().api['servers.update']({ id, config }),
  remove: (id: string, deleteCredentials: boolean) => bridge().api['servers.remove']({ id, deleteCredentials }),
  addDemo: () => bridge().api['servers.addDemo']({}),
  connect: (id: string) => bridge().api['servers.connect']({ id }),
  disconnect: (id: string) => bridge().api['servers.disconnect']({ id }),
  restart: (id: string) => bridge().api['servers.restart']({ id }),
  approve: (id: string, fingerprint: string) => bridge().api['servers.approve']({ id, fingerprint }),
  logs: (id: string) => bridge().api['servers.logs']({ id }),
  importPreview: (text: string, format?: ImportFormat) => bridge().api['servers.importPreview']({ text, ...(format ? { format } : {}) }),
  import: (args: { text: string; format?: ImportFormat; keys?: string[]; secrets?: Record<string, Record<string, string>> }) =>
    bridge().api['servers.import'](args),
  export: (format: ImportFormat) => bridge().api['servers.export']({ format }),
  /** How many tools the server has in the catalog. */
  toolCount: async (id: string) =>
    (await bridge().api['catalog.search']({ query: '', serverIds: [id], limit: 1, includeGroups: false })).total,
  /** The first page of resources, counted. */
  resourcePage: async (id: string) => {
    const page = await bridge().api['resources.list']({ id });
    return { count: page.resources.length, more: page.nextCursor !== undefined };
  },
  /** How many prompts the server lists. */
  promptCount: async (id: string) => (await bridge().api['prompts.list']({ id })).prompts.length,
};
