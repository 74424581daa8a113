// The ingress stage that bounds nesting: a message nested deeper than WIRE_MAX_DEPTH has its deeper parts replaced
// by a marker before anything stores, forwards or serialises it, and the server's log says so. (The transports cut
// the bytes before parsing already, see depth-text.ts; this stage is the guarantee for every transport.)
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { boundDepth } from './depth.js';
import type { IngressStage } from './incoming.js';
import { depthMarker, WIRE_MAX_DEPTH } from './limits.js';

/** Where a cut is reported (the session log). */
export type IngressLog = (level: 'warning', text: string) => void;

/** How often the "nested too deep" line is written at most (the rest are counted into the next line). */
const REPORT_EVERY_MS = 5000;

/** A rate-limited reporter of cut messages: at most one log line per interval, counting the others. */
export function depthReporter(log: IngressLog, limit = WIRE_MAX_DEPTH, now: () => number = Date.now): (what: string) => void {
  let lastReport = -Infinity;
  let unreported = 0;
  return (what) => {
    unreported++;
    if (now() - lastReport < REPORT_EVERY_MS) return;
    const more = unreported > 1 ? ` (${unreported} such messages since the last report)` : '';
    log(
      'warning',
      `A message from the server (${what}) is nested deeper than ${limit} levels; the deeper parts were replaced by a marker${more}`,
    );
    lastReport = now();
    unreported = 0;
  };
}

/** Builds the depth stage for one transport. */
export function depthStage(log: IngressLog, limit = WIRE_MAX_DEPTH, now: () => number = Date.now): IngressStage {
  const report = depthReporter(log, limit, now);
  return (message) => {
    const bounded = boundDepth(message, limit, depthMarker(limit));
    if (!bounded.cut) return message;
    report(describeMessage(message));
    return bounded.value as JSONRPCMessage;
  };
}

/** A short, safe description of a message for the log: its method, or "response to request N". */
export function describeMessage(message: unknown): string {
  if (typeof message !== 'object' || message === null) return 'message';
  const m = message as { method?: unknown; id?: unknown };
  if (typeof m.method === 'string') return m.method.slice(0, 80);
  if (typeof m.id === 'string' || typeof m.id === 'number') return `response to request ${String(m.id).slice(0, 40)}`;
  return 'message';
}
