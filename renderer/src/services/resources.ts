// Resource, prompt, completion and elicitation calls into the core; the only place these reach the bridge.
import type { EventKey, EventMap } from '../../../shared/contract';
import { bridge } from '../bridge';

type Ref = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

export const resourcesService = {
  list: (id: string, cursor?: string) => bridge().api['resources.list']({ id, ...(cursor !== undefined ? { cursor } : {}) }),
  templates: (id: string) => bridge().api['resources.templates']({ id }),
  read: (id: string, uri: string) => bridge().api['resources.read']({ id, uri }),
  readTemplate: (id: string, uriTemplate: string, variables: Record<string, string>) =>
    bridge().api['resources.read']({ id, uriTemplate, variables }),
  subscribe: (id: string, uri: string) => bridge().api['resources.subscribe']({ id, uri }),
  unsubscribe: (id: string, uri: string) => bridge().api['resources.unsubscribe']({ id, uri }),
  prompts: (id: string) => bridge().api['prompts.list']({ id }),
  getPrompt: (id: string, name: string, args: Record<string, string>) => bridge().api['prompts.get']({ id, name, arguments: args }),
  complete: (id: string, ref: Ref, argument: { name: string; value: string }, context?: Record<string, string>) =>
    bridge().api['completion.complete']({ id, ref, argument, ...(context ? { context } : {}) }),
  pendingElicitations: () => bridge().api['elicitation.pending']({}),
  respond: (requestId: string, action: 'accept' | 'decline' | 'cancel', content?: Record<string, unknown>) =>
    bridge().api['elicitation.respond']({ requestId, action, ...(content ? { content } : {}) }),
  on: <E extends EventKey>(event: E, listener: (payload: EventMap[E]) => void) => bridge().on(event, listener),
};
