// Protocol view, client features, roots and sampling calls into the core; the only place these reach the bridge.
import type { EventKey, EventMap } from '../../../shared/contract';
import type { ElicitationConsent, RootInput, SamplingReply, TrafficFilter } from '../../../shared/domains/protocol';
import { bridge } from '../bridge';

export const protocolService = {
  traffic: (filter: TrafficFilter & { limit?: number } = {}) => bridge().api['protocol.traffic'](filter),
  clear: (serverId?: string) => bridge().api['protocol.clear'](serverId !== undefined ? { serverId } : {}),
  features: (id: string) => bridge().api['protocol.features']({ id }),
  setFeatures: (id: string, patch: { elicitation?: boolean; sampling?: boolean; roots?: boolean; tasks?: boolean }) =>
    bridge().api['protocol.setFeatures']({ id, ...patch }),
  setConsent: (id: string, consent: ElicitationConsent) => bridge().api['protocol.setConsent']({ id, consent }),
  setRoots: (id: string, roots: RootInput[]) => bridge().api['roots.set']({ id, roots }),
  tasks: (id: string) => bridge().api['protocol.tasks']({ id }),
  pendingSampling: () => bridge().api['sampling.pending']({}),
  respondSampling: (requestId: string, action: 'accept' | 'decline', reply?: SamplingReply) =>
    bridge().api['sampling.respond']({ requestId, action, ...(reply ? { reply } : {}) }),
  on: <E extends EventKey>(event: E, listener: (payload: EventMap[E]) => void) => bridge().on(event, listener),
};
