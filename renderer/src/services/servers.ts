// Counts the server page shows, each read from one contract call.
import { api } from '../bridge';

export const serversService = {
  /** How many tools the server has in the catalog. */
  toolCount: async (id: string) => (await api['catalog.search']({ query: '', serverIds: [id], limit: 1, includeGroups: false })).total,
  /** The first page of resources, counted. */
  resourcePage: async (id: string) => {
    const page = await api['resources.list']({ id });
    return { count: page.resources.length, more: page.nextCursor !== undefined };
  },
  /** How many prompts the server lists. */
  promptCount: async (id: string) => (await api['prompts.list']({ id })).prompts.length,
};
