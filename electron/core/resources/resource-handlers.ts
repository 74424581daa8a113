// Contract handlers for resources.*, prompts.*, completion.* and elicitation.* methods.
import type { Handlers } from '../handlers.js';
import type { Host } from '../host.js';
import { notImplemented } from '../not-implemented.js';

type Keys = (`resources.${string}` | `prompts.${string}` | `completion.${string}` | `elicitation.${string}`) & keyof Handlers;

/** The resources, prompts, completion and elicitation methods' handlers. */
export function resourceHandlers(_host: Host): Pick<Handlers, Keys> {
  return {
    'resources.list': notImplemented('resources.list'),
    'resources.templates': notImplemented('resources.templates'),
    'resources.read': notImplemented('resources.read'),
    'resources.subscribe': notImplemented('resources.subscribe'),
    'resources.unsubscribe': notImplemented('resources.unsubscribe'),
    'prompts.list': notImplemented('prompts.list'),
    'prompts.get': notImplemented('prompts.get'),
    'completion.complete': notImplemented('completion.complete'),
    'elicitation.pending': notImplemented('elicitation.pending'),
    'elicitation.respond': notImplemented('elicitation.respond'),
  };
}
