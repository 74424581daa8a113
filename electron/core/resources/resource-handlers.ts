// Contract handlers for resources.*, prompts.*, completion.* and elicitation.* methods.
import type { Handlers } from '../handlers.js';
import type { Host } from '../host.js';

type Keys = (`resources.${string}` | `prompts.${string}` | `completion.${string}` | `elicitation.${string}`) & keyof Handlers;

/** The resources, prompts, completion and elicitation methods' handlers. */
export function resourceHandlers(host: Host): Pick<Handlers, Keys> {
  const r = host.interaction.resources;
  const broker = host.interaction.elicitation;
  return {
    'resources.list': ({ id, cursor }) => r.list(id, cursor),
    'resources.templates': ({ id }) => r.templates(id),
    'resources.read': (args) =>
      r.read(args.id, 'uri' in args ? { uri: args.uri } : { uriTemplate: args.uriTemplate, variables: args.variables }),
    'resources.subscribe': ({ id, uri }) => r.subscribe(id, uri),
    'resources.unsubscribe': ({ id, uri }) => r.unsubscribe(id, uri),
    'prompts.list': ({ id }) => r.prompts(id),
    'prompts.get': ({ id, name, arguments: args }) => r.prompt(id, name, args),
    'completion.complete': ({ id, ref, argument, context }) => r.complete(id, ref, argument, context),
    'elicitation.pending': async () => broker.pending(),
    'elicitation.respond': ({ requestId, action, content }) => broker.respond(requestId, action, content),
  };
}
