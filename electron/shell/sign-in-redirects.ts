// The OAuth redirect listeners, held by the shell so a sign-in outlives its core. The core opens a flow (its server
// and state), hands over what the token exchange needs once it sends the browser off, and waits for the redirect; the
// shell runs the loopback listener (the platform's: 127.0.0.1, exact path, GET only, Host checked, static pages,
// timeout), checks each redirect's state in constant time, takes exactly one matching redirect per flow, and gives it
// to the core that asks, holding the browser tab until that core says how the exchange went. When the core dies the
// armed flows stay, with a redirect that may arrive meanwhile or that the dead core was still exchanging (a matched
// redirect is kept until a core answers for it), and the next core takes them over (`signIn.adopt`) and exchanges it.
// Everything it holds lives in this process's memory only: never logged, never written. Both shells use it over the
// link; the command line, whose core runs in its own process, calls it directly.
import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { EventMap } from '../../shared/contract.js';
import type { PendingExchange, RedirectListener, SignInNext, SignInRequest } from '../core/auth/auth-ports.js';
import type { ShellRequest } from '../core-process/messages.js';
import { listenForRedirect } from '../platform/redirect-listener.js';
import type { CoreEventListener } from './core-supervisor.js';

/** Flows held at once (a runaway core cannot open listeners without bound). */
export const MAX_HELD_SIGN_INS = 64;
/** Longest a flow may be asked to live (the core asks for 5 minutes). */
export const MAX_SIGN_IN_LIFETIME_MS = 15 * 60 * 1000;
/**
 * How long the browser tab waits for a core's verdict on the redirect before it is told to go back to Switchboard
 * anyway (the redirect is kept for the core being restarted, which finishes the sign-in when it starts).
 */
export const REDIRECT_ANSWER_WAIT_MS = 20_000;

/** What the shell's log hears (never a state, code or verifier). */
export type SignInLog = (level: 'info' | 'warn', message: string) => void;

interface HeldFlow {
  readonly id: string;
  readonly serverId: string;
  readonly state: string;
  listener: RedirectListener | undefined;
  /** What the exchange needs; a flow without it cannot be finished by another core. */
  exchange?: PendingExchange;
  /** The one redirect whose state matched, until a core says how the exchange went. */
  received?: string;
  /** The running core has the redirect and is exchanging its code: until it answers, the flow is not closed. */
  delivered?: boolean;
  /** The core waiting for this flow's redirect. */
  waiter?: ((next: SignInNext) => void) | undefined;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The shell's sign-in flows and their loopback listeners. */
export class SignInRedirects {
  readonly #log: SignInLog;
  readonly #flows = new Map<string, HeldFlow>();
  /** Browser tabs waiting for a core's verdict, by flow (they outlive the flow's closing). */
  readonly #answers = new Map<string, (ok: boolean) => void>();

  constructor(opts: { log: SignInLog }) {
    this.#log = opts.log;
  }

  /** How many flows are held (tests, the shell's log). */
  get size(): number {
    return this.#flows.size;
  }

  /** Answers one request of the core. */
  async serve(request: SignInRequest): Promise<unknown> {
    switch (request.op) {
      case 'signIn.open':
        return this.#open(request.serverId, request.state, request.timeoutMs);
      case 'signIn.arm': {
        const flow = this.#flow(request.flowId);
        if (request.exchange?.v !== 1 || request.exchange.state !== flow.state)
          throw new Error('the sign-in material does not fit the flow');
        flow.exchange = request.exchange;
        return true;
      }
      case 'signIn.next':
        return this.#next(request.flowId);
      case 'signIn.answer': {
        const answer = this.#answers.get(request.flowId);
        this.#answers.delete(request.flowId);
        answer?.(request.ok === true);
        // The exchange is over either way: the state is used up.
        this.#end(request.flowId, 'closed');
        return true;
      }
      case 'signIn.close': {
        // A core closes the listener as soon as the state matched, before its exchange: should it die now, the next
        // core must still get the redirect. The flow ends with the core's answer (or goes on to the next core).
        const flow = this.#flows.get(request.flowId);
        if (flow?.delivered === true && flow.received !== undefined) return true;
        this.#end(request.flowId, 'closed');
        return true;
      }
      case 'signIn.adopt':
        return [...this.#flows.values()]
          .filter((f) => f.exchange !== undefined)
          .map((f) => {
            this.#log('info', `a sign-in to ${f.serverId} started before the core restarted is handed to the new core`);
            return { flowId: f.id, exchange: f.exchange };
          });
    }
  }

  /**
   * The core died: whoever waited belongs to it. A flow it had not armed yet cannot be finished by anyone and is
   * closed; an armed one (and a redirect that arrives for it now) waits for the next core.
   */
  coreGone(): void {
    for (const flow of [...this.#flows.values()]) {
      flow.waiter = undefined;
      // An exchange the dead core had not answered is the next core's to do again.
      flow.delivered = false;
      if (flow.exchange === undefined) this.#end(flow.id, 'closed');
    }
  }

  /** The shell is closing: every listener stops, every tab still waiting is told to go back to Switchboard. */
  async close(): Promise<void> {
    for (const answer of this.#answers.values()) answer(false);
    this.#answers.clear();
    const listeners = [...this.#flows.values()].map((f) => f.listener);
    for (const flow of this.#flows.values()) flow.waiter?.({ kind: 'closed' });
    this.#flows.clear();
    await Promise.allSettled(listeners.map((l) => l?.close()));
  }

  #flow(id: string): HeldFlow {
    const flow = this.#flows.get(id);
    if (!flow) throw new Error('that sign-in is no longer held (it finished, expired or was cancelled)');
    return flow;
  }

  async #open(serverId: string, state: string, timeoutMs: number): Promise<{ flowId: string; redirectUri: string }> {
    if (typeof serverId !== 'string' || typeof state !== 'string' || state.length < 16)
      throw new Error('a sign-in needs its server and a state');
    if (this.#flows.size >= MAX_HELD_SIGN_INS) throw new Error(`more than ${MAX_HELD_SIGN_INS} sign-ins at once are not held`);
    const lifetime = Number.isInteger(timeoutMs) && timeoutMs > 0 ? Math.min(timeoutMs, MAX_SIGN_IN_LIFETIME_MS) : MAX_SIGN_IN_LIFETIME_MS;
    const flow: HeldFlow = { id: randomUUID(), serverId, state, listener: undefined };
    this.#flows.set(flow.id, flow);
    try {
      flow.listener = await listenForRedirect({
        onCallback: (hit) => this.#redirect(flow, hit.url),
        onTimeout: () => this.#end(flow.id, 'timeout'),
        timeoutMs: lifetime,
      });
    } catch (err) {
      this.#flows.delete(flow.id);
      throw err;
    }
    return { flowId: flow.id, redirectUri: flow.listener.redirectUri };
  }

  /** A request reached the flow's exact callback path with a loopback Host. */
  async #redirect(flow: HeldFlow, url: URL): Promise<{ ok: boolean }> {
    if (this.#flows.get(flow.id) !== flow || flow.received !== undefined) return { ok: false };
    const states = url.searchParams.getAll('state');
    if (states.length !== 1 || !sameSecret(states[0] ?? '', flow.state)) {
      // Someone else's request (or a forged one): refused, and the flow keeps waiting for its own.
      this.#log('warn', `a redirect to the sign-in listener for ${flow.serverId} was refused: its state does not match`);
      return { ok: false };
    }
    flow.received = url.href;
    const verdict = new Promise<boolean | undefined>((resolve) => {
      this.#answers.set(flow.id, resolve);
      const timer = setTimeout(() => resolve(undefined), REDIRECT_ANSWER_WAIT_MS);
      timer.unref();
    });
    const waiter = flow.waiter;
    flow.waiter = undefined;
    if (waiter) {
      flow.delivered = true;
      waiter({ kind: 'redirect', url: flow.received });
    } else this.#log('info', `the sign-in redirect for ${flow.serverId} arrived while no core was waiting; it is kept for the next core`);
    const ok = await verdict;
    if (ok === undefined) {
      this.#answers.delete(flow.id);
      this.#log('warn', `no core answered the sign-in redirect for ${flow.serverId} in time; the tab was sent back to Switchboard`);
      // The tab is told to return to Switchboard; the redirect stays with the flow for the core that comes back.
      return { ok: true };
    }
    return { ok };
  }

  #next(id: string): Promise<SignInNext> {
    const flow = this.#flows.get(id);
    if (!flow) return Promise.resolve({ kind: 'closed' });
    // A redirect received while no core (or a core that then died) had it: this core finishes it.
    if (flow.received !== undefined) {
      flow.delivered = true;
      return Promise.resolve({ kind: 'redirect', url: flow.received });
    }
    flow.waiter?.({ kind: 'closed' });
    return new Promise((resolve) => (flow.waiter = resolve));
  }

  #end(id: string, why: 'closed' | 'timeout'): void {
    const flow = this.#flows.get(id);
    if (!flow) return;
    this.#flows.delete(id);
    const waiter = flow.waiter;
    flow.waiter = undefined;
    waiter?.({ kind: why });
    if (why === 'timeout' && !waiter) this.#log('info', `the sign-in to ${flow.serverId} expired while no core was waiting for it`);
    // The platform listener lets a tab still being answered finish before it stops.
    void flow.listener?.close();
  }
}

const isSignInRequest = (request: ShellRequest): request is SignInRequest => request.op.startsWith('signIn.');

/** Answers the core's sign-in requests with `redirects` and passes everything else to `serve`. */
export function withSignInRedirects(
  redirects: SignInRedirects,
  serve: (request: ShellRequest) => Promise<unknown>,
): (request: ShellRequest) => Promise<unknown> {
  return (request) => (isSignInRequest(request) ? redirects.serve(request) : serve(request));
}

/** A listener of the supervisor's events: whenever the core is not running, its waits are dropped. */
export function signInsFollowCore(redirects: SignInRedirects): CoreEventListener {
  return (event, payload) => {
    if (event === 'app.coreStatus' && (payload as EventMap['app.coreStatus']).state !== 'running') redirects.coreGone();
  };
}
