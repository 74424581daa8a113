// The ingress stage for an absent `resultType` on a 2026-07-28 connection. The draft says a result MUST carry one,
// and also that clients MUST treat an absent `resultType` as "complete"; the SDK applies the second rule only to
// earlier-revision servers and otherwise rejects the whole result. A server that negotiated 2026-07-28 but omits the
// field would then make every call fail, so this stage fills in "complete" (what the spec tells the client to
// assume) before the SDK sees the response, and says once per connection that it did.
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import type { IngressStage } from './incoming.js';

/** Where the stage says it filled the field in (the session log). */
export type ResultTypeLog = (level: 'info', text: string) => void;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Builds the stage for one transport. `modern` says whether the connection negotiated the 2026-07-28 revision
 * (asked per message: the probe's own answer arrives before that is known, and legacy results stay untouched).
 */
export function resultTypeStage(modern: () => boolean, log: ResultTypeLog): IngressStage {
  let told = false;
  return (message) => {
    if (!('result' in message) || !('id' in message)) return message;
    const result: unknown = message.result;
    if (!isPlainObject(result) || 'resultType' in result || !modern()) return message;
    if (!told) {
      told = true;
      log('info', 'The server sent a result without resultType on a 2026-07-28 connection; treated as "complete", as the spec says to');
    }
    return { ...message, result: { ...result, resultType: 'complete' } } as JSONRPCMessage;
  };
}
