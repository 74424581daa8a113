// Tool-call and history calls into the core; the only place the calls UI reaches the bridge.
import type { EventKey, EventMap } from '../../../shared/contract';
import type { ExportCollectionArgs, ExportTestArgs } from '../../../shared/domains/calls';
import { bridge } from '../bridge';

export const callsService = {
  call: (name: string, args: Record<string, unknown>, callId: string) => bridge().api['tools.call']({ name, arguments: args, callId }),
  cancel: (callId: string) => bridge().api['tools.cancel']({ callId }),
  history: (q: { query?: string; offset?: number; limit?: number; savedOnly?: boolean }) => bridge().api['calls.history'](q),
  result: (callId: string) => bridge().api['calls.result']({ callId }),
  save: (callId: string, name: string) => bridge().api['calls.save']({ callId, name }),
  clear: (includeSaved: boolean) => bridge().api['calls.clear']({ includeSaved }),
  exportHistory: () => bridge().api['calls.export']({}),
  exportTest: (args: ExportTestArgs) => bridge().api['calls.exportTest'](args),
  exportCollection: (args: ExportCollectionArgs) => bridge().api['calls.exportCollection'](args),
  toolDetail: (name: string) => bridge().api['catalog.tool']({ name }),
  signIn: (serverId: string) => bridge().api['auth.begin']({ id: serverId }),
  on: <E extends EventKey>(event: E, listener: (payload: EventMap[E]) => void) => bridge().on(event, listener),
};
