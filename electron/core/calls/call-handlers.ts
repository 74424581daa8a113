// Contract handlers for tools.* and calls.* methods.
import type { Handlers } from '../handlers.js';
import type { Host } from '../host.js';
import { notImplemented } from '../not-implemented.js';

/** The tool-call and history methods' handlers. */
export function callHandlers(_host: Host): Pick<Handlers, (`tools.${string}` | `calls.${string}`) & keyof Handlers> {
  return {
    'tools.call': notImplemented('tools.call'),
    'tools.cancel': notImplemented('tools.cancel'),
    'calls.history': notImplemented('calls.history'),
    'calls.result': notImplemented('calls.result'),
    'calls.save': notImplemented('calls.save'),
    'calls.clear': notImplemented('calls.clear'),
    'calls.export': notImplemented('calls.export'),
  };
}
