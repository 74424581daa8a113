// The core's side of redirect listeners someone else holds: the shell (over the link to it), so a sign-in outlives a
// crash of this process, or the command line's own process (the same holder, called directly). The holder listens,
// checks each redirect's state and keeps what the exchange needs; this side opens flows, hands over that material,
// waits for the redirect (one `signIn.next` per flow) and says how the exchange went so the browser tab is answered.
import { AppError } from '../../../shared/errors.js';
import type {
  AdoptableSignIn,
  AdoptSignIns,
  HeldRedirectListener,
  ListenForRedirect,
  PendingExchange,
  RedirectHandlers,
  SignInNext,
  SignInRequest,
} from './auth-ports.js';

/** Asks the holder; rejects when it refuses or is gone. */
export type AskHolder = (request: SignInRequest) => Promise<unknown>;

/** The two authorization ports, over a holder. */
export interface HeldSignIns {
  listen: ListenForRedirect;
  adopt: AdoptSignIns;
}

const DEFAULT_TIMEOUT_MS = 5 * 60 * 1000;

function parseNext(value: unknown): SignInNext {
  const v = value as { kind?: unknown; url?: unknown } | null;
  if (v?.kind === 'redirect' && typeof v.url === 'string') return { kind: 'redirect', url: v.url };
  if (v?.kind === 'timeout') return { kind: 'timeout' };
  return { kind: 'closed' };
}

/** Waits for the flow's one redirect (or its end) and reports the verdict back, so the browser tab is answered. */
function follow(ask: AskHolder, flowId: string, handlers: RedirectHandlers): void {
  void (async () => {
    let next: SignInNext;
    try {
      next = parseNext(await ask({ op: 'signIn.next', flowId }));
    } catch {
      // The holder is gone (this core is shutting down, or its shell closed): nothing more can arrive here.
      return;
    }
    if (next.kind === 'closed') return;
    if (next.kind === 'timeout') {
      handlers.onTimeout();
      return;
    }
    let ok = false;
    try {
      ok = (await handlers.onCallback({ url: new URL(next.url) })).ok;
    } catch {
      ok = false;
    }
    // Only the browser tab's page depends on it; the flow's own outcome is already recorded and shown.
    await ask({ op: 'signIn.answer', flowId, ok }).catch(() => undefined);
  })();
}

function listenerFor(ask: AskHolder, flowId: string, redirectUri: string): HeldRedirectListener {
  let closed = false;
  return {
    redirectUri,
    arm: async (exchange: PendingExchange) => {
      await ask({ op: 'signIn.arm', flowId, exchange });
    },
    close: async () => {
      if (closed) return;
      closed = true;
      // A holder already gone has closed the listener with it.
      await ask({ op: 'signIn.close', flowId }).catch(() => undefined);
    },
  };
}

/** The listen and adopt ports over `ask`. */
export function heldSignIns(ask: AskHolder): HeldSignIns {
  const listen: ListenForRedirect = async ({ onCallback, onTimeout, timeoutMs, serverId, state }) => {
    if (serverId === undefined || state === undefined)
      throw new AppError('internal', "A redirect listener held by the shell needs the flow's server and state");
    const opened = (await ask({ op: 'signIn.open', serverId, state, timeoutMs: timeoutMs ?? DEFAULT_TIMEOUT_MS })) as {
      flowId?: unknown;
      redirectUri?: unknown;
    } | null;
    if (typeof opened?.flowId !== 'string' || typeof opened.redirectUri !== 'string')
      throw new AppError('internal', 'The shell did not open a redirect listener');
    follow(ask, opened.flowId, { onCallback, onTimeout });
    return listenerFor(ask, opened.flowId, opened.redirectUri);
  };
  const adopt: AdoptSignIns = async () => {
    const value = await ask({ op: 'signIn.adopt' });
    const list = Array.isArray(value) ? (value as { flowId?: unknown; exchange?: unknown }[]) : [];
    const held: AdoptableSignIn[] = [];
    for (const item of list) {
      const exchange = item.exchange as PendingExchange | undefined;
      if (typeof item.flowId !== 'string' || exchange?.v !== 1) continue;
      const flowId = item.flowId;
      held.push({
        exchange,
        resume: (handlers) => {
          follow(ask, flowId, handlers);
          return listenerFor(ask, flowId, exchange.redirectUri);
        },
      });
    }
    return held;
  };
  return { listen, adopt };
}
