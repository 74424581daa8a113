import type { ElicitationRequestView } from '../../../shared/domains/resources';
import type { SliceCreator, Store } from './types';
import { api, onEvent } from '../bridge';

/** Resources, prompts and elicitation state: the dialog queue and change marks pushed by the core. */
export interface ResourcesSlice {
  /** Pending elicitation requests, oldest first (one dialog at a time). */
  elicitations: ElicitationRequestView[];
  /** Update counts per `serverId\nuri` (resources.updated). */
  resourceUpdates: Record<string, number>;
  /** Bumped on resources.listChanged per server. */
  resourceListVersion: Record<string, number>;
  /** Bumped on prompts.listChanged per server. */
  promptListVersion: Record<string, number>;
  /** Subscribes to the core's events and loads requests that were already waiting. */
  startResources: () => Promise<void>;
  /** Answers the request at the head of the queue (or any by id). */
  respondElicitation: (requestId: string, action: 'accept' | 'decline' | 'cancel', content?: Record<string, unknown>) => Promise<void>;
  /** Completion suggestions for a prompt argument or a template variable. */
  complete: (
    serverId: string,
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
    argument: { name: string; value: string },
    context?: Record<string, string>,
  ) => Promise<string[]>;
}

export const resourcesInitialState = {
  elicitations: [],
  resourceUpdates: {},
  resourceListVersion: {},
  promptListVersion: {},
} satisfies Partial<ResourcesSlice>;

let started = false;

export const createResourcesSlice: SliceCreator<ResourcesSlice> = (set, get) => ({
  ...resourcesInitialState,
  startResources: async () => {
    if (started) return;
    started = true;
    onEvent('elicitation.requested', ({ request }) => {
      if (get().elicitations.some((e) => e.requestId === request.requestId)) return;
      set({ elicitations: [...get().elicitations, request] });
    });
    onEvent('elicitation.cancelled', ({ requestId }) => set({ elicitations: get().elicitations.filter((e) => e.requestId !== requestId) }));
    onEvent('resources.updated', ({ id, uri }) => {
      const key = `${id}\n${uri}`;
      set({ resourceUpdates: { ...get().resourceUpdates, [key]: (get().resourceUpdates[key] ?? 0) + 1 } });
    });
    onEvent('resources.listChanged', ({ id }) =>
      set({ resourceListVersion: { ...get().resourceListVersion, [id]: (get().resourceListVersion[id] ?? 0) + 1 } }),
    );
    onEvent('prompts.listChanged', ({ id }) =>
      set({ promptListVersion: { ...get().promptListVersion, [id]: (get().promptListVersion[id] ?? 0) + 1 } }),
    );
    const pending = await api['elicitation.pending']({});
    const known = new Set(get().elicitations.map((e) => e.requestId));
    set({ elicitations: [...get().elicitations, ...pending.filter((p) => !known.has(p.requestId))] });
  },
  complete: async (serverId, ref, argument, context) =>
    (await api['completion.complete']({ id: serverId, ref, argument, ...(context ? { context } : {}) })).values,
  respondElicitation: async (requestId, action, content) => {
    await api['elicitation.respond']({ requestId, action, ...(content ? { content } : {}) });
    set({ elicitations: get().elicitations.filter((e) => e.requestId !== requestId) });
  },
});

/** The request shown now. */
export const selectCurrentElicitation = (s: Store): ElicitationRequestView | undefined => s.elicitations[0];
/** How many requests wait, including the one shown. */
export const selectElicitationCount = (s: Store): number => s.elicitations.length;
/** How often a resource was updated since the app started. */
export const selectResourceUpdates =
  (id: string, uri: string) =>
  (s: Store): number =>
    s.resourceUpdates[`${id}\n${uri}`] ?? 0;
