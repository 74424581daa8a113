// Contract handlers for tools.* and calls.* methods.
import { isObject } from '../json.js';
import type { Handlers } from '../handlers.js';
import { boundForView } from '../ingress/view.js';
import type { Host } from '../host.js';
import { exportCallsAsCollection } from './export-collection.js';
import { exportCallsAsTest } from './export-test.js';

/** The full structured content of a call whose envelope is still kept, else undefined. */
function keptStructured(host: Host, callId: string): unknown {
  try {
    const { result } = host.calls.result(callId);
    return isObject(result) ? result['structuredContent'] : undefined;
  } catch {
    return undefined;
  }
}

/** The tool-call and history methods' handlers. */
export function callHandlers(host: Host): Pick<Handlers, (`tools.${string}` | `calls.${string}`) & keyof Handlers> {
  return {
    'tools.call': (args) => host.calls.call(args),
    'tools.cancel': async ({ callId }) => host.calls.cancel(callId),
    'calls.history': async (q) => host.calls.history.search(q),
    'calls.result': async ({ callId }) => {
      const envelope = host.calls.result(callId);
      const view = boundForView(envelope.result, 'The result');
      return view.notice === undefined ? envelope : { ...envelope, result: view.value, notice: view.notice };
    },
    'calls.save': async ({ callId, name }) => host.calls.history.save(callId, name),
    'calls.clear': async ({ includeSaved }) => host.calls.history.clear(includeSaved === true),
    'calls.export': async () => host.calls.history.export(),
    'calls.exportTest': (args) =>
      exportCallsAsTest(
        {
          entry: (id) => host.calls.history.get(id),
          server: (id) => host.config(id),
          structuredContent: (id) => keptStructured(host, id),
          usesBearer: async (id) => (await host.auth.status(id)).kind === 'bearer',
        },
        args,
      ),
    'calls.exportCollection': async (args) =>
      exportCallsAsCollection({ entry: (id) => host.calls.history.get(id), structuredContent: (id) => keptStructured(host, id) }, args),
  };
}
