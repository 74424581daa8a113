// The calls running now, by call id. Built before the sessions, so the per-Client hooks can find the relay of a
// server's only running call (a gateway client's) without depending on the call service, which is built after them.
import type { CallRelay } from './call-service.js';

/** One running call. */
export interface RunningCall {
  controller: AbortController;
  serverId: string;
  relay?: CallRelay;
}

/** Running calls by call id. */
export class RunningCalls extends Map<string, RunningCall> {
  /** The relay of the server's running call when it is the server's only one (else the requests are ambiguous). */
  relayFor(serverId: string): CallRelay | undefined {
    let found: RunningCall | undefined;
    for (const r of this.values()) {
      if (r.serverId !== serverId) continue;
      if (found) return undefined;
      found = r;
    }
    return found?.relay;
  }
}
