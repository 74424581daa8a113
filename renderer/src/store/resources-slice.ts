import type { InvokeResult } from '../../../shared/contract';
import type { ElicitationRequestView } from '../../../shared/domains/resources';
import { resourcesService } from '../services/resources';
import type { SliceCreator, Store } from './types';

/** A subscription the core could not re-establish; `seq` tells one loss from the next. */
export interface LostSubscription {
  reason: string;
  seq: number;
}

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
  /** Subscriptions lost when their server reconnected, per `serverId\nuri`, with the reason. */
  lostSubscriptions: Record<string, LostSubscription>;
  /** A subscription could not be re-made after a reconnect (resources.subscriptionLost). */
  applySubscriptionLost: (id: string, uri: string, reason: string) => void;
  /** Loads the requests that were already waiting. */
  loadPendingElicitations: () => Promise<void>;
  /** A server asks the person something (elicitation.requested). */
  applyElicitationRequested: (request: ElicitationRequestView) => void;
  /** A question was withdrawn (elicitation.cancelled). */
  applyElicitationCancelled: (requestId: string) => void;
  /** A subscribed resource changed (resources.updated). */
  applyResourceUpdated: (id: string, uri: string) => void;
  /** A server's resource list changed (resources.listChanged). */
  applyResourceListChanged: (id: string) => void;
  /** A server's prompt list changed (prompts.listChanged). */
  applyPromptListChanged: (id: string) => void;
  /** Answers the request at the head of the queue (or any by id). */
  respondElicitation: (requestId: string, action: 'accept' | 'decline' | 'cancel', content?: Record<string, unknown>) => Promise<void>;
  /** One page of a server's resources. */
  listResources: (id: string, cursor?: string) => Promise<InvokeResult<'resources.list'>>;
  /** A server's resource templates. */
  listResourceTemplates: (id: string) => Promise<InvokeResult<'resources.templates'>>;
  /** Reads a resource by URI. */
  readResource: (id: string, uri: string) => Promise<InvokeResult<'resources.read'>>;
  /** Reads the resource a template names with these variables. */
  readResourceTemplate: (id: string, uriTemplate: string, variables: Record<string, string>) => Promise<InvokeResult<'resources.read'>>;
  /** Asks the server to say when a resource changes (resources.updated). */
  subscribeResource: (id: string, uri: string) => Promise<void>;
  unsubscribeResource: (id: string, uri: string) => Promise<void>;
  /** A server's prompts. */
  listPrompts: (id: string) => Promise<InvokeResult<'prompts.list'>>;
  /** Gets a prompt with its arguments filled. */
  getPrompt: (id: string, name: string, args: Record<string, string>) => Promise<InvokeResult<'prompts.get'>>;
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
  lostSubscriptions: {},
} satisfies Partial<ResourcesSlice>;

export const createResourcesSlice: SliceCreator<ResourcesSlice> = (set, get) => ({
  ...resourcesInitialState,
  applyElicitationRequested: (request) => {
    if (get().elicitations.some((e) => e.requestId === request.requestId)) return;
    set({ elicitations: [...get().elicitations, request] });
  },
  applyElicitationCancelled: (requestId) => set({ elicitations: get().elicitations.filter((e) => e.requestId !== requestId) }),
  applyResourceUpdated: (id, uri) => {
    const key = `${id}\n${uri}`;
    set({ resourceUpdates: { ...get().resourceUpdates, [key]: (get().resourceUpdates[key] ?? 0) + 1 } });
  },
  applyResourceListChanged: (id) =>
    set({ resourceListVersion: { ...get().resourceListVersion, [id]: (get().resourceListVersion[id] ?? 0) + 1 } }),
  applySubscriptionLost: (id, uri, reason) =>
    set({
      lostSubscriptions: {
        ...get().lostSubscriptions,
        [`${id}\n${uri}`]: { reason, seq: (get().lostSubscriptions[`${id}\n${uri}`]?.seq ?? 0) + 1 },
      },
    }),
  applyPromptListChanged: (id) => set({ promptListVersion: { ...get().promptListVersion, [id]: (get().promptListVersion[id] ?? 0) + 1 } }),
  loadPendingElicitations: async () => {
    const pending = await resourcesService.pendingElicitations();
    const known = new Set(get().elicitations.map((e) => e.requestId));
    set({ elicitations: [...get().elicitations, ...pending.filter((p) => !known.has(p.requestId))] });
  },
  listResources: (id, cursor) => resourcesService.list(id, cursor),
  listResourceTemplates: (id) => resourcesService.templates(id),
  readResource: (id, uri) => resourcesService.read(id, uri),
  readResourceTemplate: (id, uriTemplate, variables) => resourcesService.readTemplate(id, uriTemplate, variables),
  subscribeResource: async (id, uri) => {
    await resourcesService.subscribe(id, uri);
  },
  unsubscribeResource: async (id, uri) => {
    await resourcesService.unsubscribe(id, uri);
  },
  listPrompts: (id) => resourcesService.prompts(id),
  getPrompt: (id, name, args) => resourcesService.getPrompt(id, name, args),
  complete: async (serverId, ref, argument, context) => (await resourcesService.complete(serverId, ref, argument, context)).values,
  respondElicitation: async (requestId, action, content) => {
    await resourcesService.respond(requestId, action, content);
    set({ elicitations: get().elicitations.filter((e) => e.requestId !== requestId) });
  },
});

/** The request shown now. */
export const selectCurrentElicitation = (s: Store): ElicitationRequestView | undefined => s.elicitations[0];
/** How many requests wait, including the one shown. */
export const selectElicitationCount = (s: Store): number => s.elicitations.length;
/** Why a subscription to this resource was lost on a reconnect, if it was. */
export const selectLostSubscription =
  (id: string, uri: string) =>
  (s: Store): LostSubscription | undefined =>
    s.lostSubscriptions[`${id}\n${uri}`];
/** How often a resource was updated since the app started. */
export const selectResourceUpdates =
  (id: string, uri: string) =>
  (s: Store): number =>
    s.resourceUpdates[`${id}\n${uri}`] ?? 0;
