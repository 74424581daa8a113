// Contract handlers for catalog.* methods.
import type { Handlers } from '../handlers.js';
import type { Host } from '../host.js';
import { notImplemented } from '../not-implemented.js';

/** The catalog methods' handlers. */
export function catalogHandlers(_host: Host): Pick<Handlers, `catalog.${string}` & keyof Handlers> {
  return {
    'catalog.groups': notImplemented('catalog.groups'),
    'catalog.select': notImplemented('catalog.select'),
    'catalog.search': notImplemented('catalog.search'),
    'catalog.tool': notImplemented('catalog.tool'),
    'catalog.refresh': notImplemented('catalog.refresh'),
    'catalog.approveTool': notImplemented('catalog.approveTool'),
  };
}
