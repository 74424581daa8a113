// Sampling answered by hand: a server's sampling/createMessage becomes a queued request the person reads and
// answers with their own text (or declines). Bounded, queued like elicitation, and it never hangs: a timeout,
// the server withdrawing the request or its session closing settles it. With no window the person can see it is
// refused at once, and closing the last window withdraws what waits.
import { randomUUID } from 'node:crypto';
import { ProtocolError } from '@modelcontextprotocol/client';
import type { SamplingReply, SamplingRequestView } from '../../../shared/domains/protocol.js';
import { AppError } from '../../../shared/errors.js';
import type { EventBus } from '../event-bus.js';
import type { PresencePort } from '../presence.js';
import { sanitizeText } from '../text.js';
import { samplingView } from './sampling-view.js';

/** JSON-RPC error code the specification suggests for a sampling request the user rejected. */
export const USER_REJECTED = -1;
/** Requests that may wait per server. */
export const MAX_PENDING_SAMPLING = 20;
/** Model name reported when the person does not give one. */
export const BY_HAND_MODEL = 'switchboard-by-hand';

/** The result sent back to the server. */
export interface SamplingResult {
  [key: string]: unknown;
  role: 'assistant';
  content: { type: 'text'; text: string };
  model: string;
  stopReason: string;
}

/** What the broker needs from its surroundings. */
export interface SamplingBrokerDeps {
  /** Where sampling.requested / sampling.settled go. */
  events: Pick<EventBus, 'emit'>;
  /** Whether the person can see a Switchboard window. */
  presence: PresencePort;
  /** The server's display name. */
  serverName(serverId: string): string;
  /** How long a request may wait for the person. */
  timeoutMs(serverId: string): number;
  /** Clock (tests). */
  now?: () => number;
}

/** Who asked, when it was not the server itself: one of its MCP Apps (its launch and tool). */
export interface SamplingAppOrigin {
  launchId: string;
  tool: string;
}

interface Pending {
  view: SamplingRequestView;
  launchId?: string;
  resolve: (result: SamplingResult) => void;
  reject: (err: unknown) => void;
  timer: ReturnType<typeof setTimeout>;
  detach: () => void;
}

/** Queues sampling requests for the person, one answer each. */
export class SamplingBroker {
  readonly #deps: SamplingBrokerDeps;
  readonly #pending = new Map<string, Pending>();

  constructor(deps: SamplingBrokerDeps) {
    this.#deps = deps;
    deps.presence.onChange(() => {
      if (!deps.presence.attached) this.cancelAll('The last Switchboard window was closed');
    });
  }

  /** Requests waiting for the person, oldest first. */
  pending(): SamplingRequestView[] {
    return [...this.#pending.values()].map((p) => p.view);
  }

  /**
   * Handles one server request. Resolves with the person's reply; rejects (a JSON-RPC error to the server) when
   * they decline, nobody is there, too many requests wait, it times out or the server withdraws it.
   */
  request(serverId: string, params: Record<string, unknown>, signal?: AbortSignal, app?: SamplingAppOrigin): Promise<SamplingResult> {
    if (!this.#deps.presence.visible)
      return Promise.reject(rejected('Nobody is there to answer the sampling request: no Switchboard window is open'));
    if (signal?.aborted) return Promise.reject(rejected('The request was withdrawn'));
    if (this.pending().filter((v) => v.serverId === serverId).length >= MAX_PENDING_SAMPLING)
      return Promise.reject(rejected('Too many sampling requests are already waiting'));
    const timeoutMs = this.#deps.timeoutMs(serverId);
    const view: SamplingRequestView = {
      requestId: randomUUID(),
      serverId,
      serverName: sanitizeText(this.#deps.serverName(serverId)),
      ...samplingView(params),
      ...(app ? { fromApp: { tool: sanitizeText(app.tool) } } : {}),
      expiresAt: (this.#deps.now?.() ?? Date.now()) + timeoutMs,
    };
    return new Promise<SamplingResult>((resolve, reject) => {
      const onAbort = (): void => this.#settle(view.requestId, rejected('The request was withdrawn'), 'The server withdrew the request');
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#pending.set(view.requestId, {
        view,
        ...(app ? { launchId: app.launchId } : {}),
        resolve,
        reject,
        timer: setTimeout(
          () => this.#settle(view.requestId, rejected('Nobody replied in time'), `No reply within ${Math.round(timeoutMs / 1000)} s`),
          timeoutMs,
        ),
        detach: () => signal?.removeEventListener('abort', onAbort),
      });
      this.#deps.events.emit('sampling.requested', { request: view, queueLength: this.#pending.size });
    });
  }

  /** The person's answer: their reply text (sent as the model's message) or a decline. */
  respond(requestId: string, action: 'accept' | 'decline', reply?: SamplingReply): void {
    const entry = this.#pending.get(requestId);
    if (!entry) throw new AppError('not_found', 'This request is no longer waiting (it was answered, timed out or withdrawn)');
    if (action === 'decline') {
      this.#settle(requestId, rejected('The person declined the sampling request'), 'Declined');
      return;
    }
    if (!reply || reply.text.trim() === '') throw new AppError('invalid_request', 'Write a reply before sending it, or decline');
    this.#finish(entry);
    entry.resolve({
      role: 'assistant',
      content: { type: 'text', text: reply.text },
      model: reply.model ?? BY_HAND_MODEL,
      stopReason: reply.stopReason ?? 'endTurn',
    });
    this.#deps.events.emit('sampling.settled', { requestId, reason: 'Answered', queueLength: this.#pending.size });
  }

  /** Withdraws every request of a server (its session closed or it was removed). */
  cancelServer(serverId: string, reason: string): void {
    for (const [id, entry] of this.#pending) if (entry.view.serverId === serverId) this.#settle(id, rejected(reason), reason);
  }

  /** Withdraws every request of one app launch (its frame closed). */
  cancelLaunch(launchId: string, reason: string): void {
    for (const [id, entry] of this.#pending) if (entry.launchId === launchId) this.#settle(id, rejected(reason), reason);
  }

  /** Withdraws everything (shutdown). */
  cancelAll(reason: string): void {
    for (const id of [...this.#pending.keys()]) this.#settle(id, rejected(reason), reason);
  }

  #settle(requestId: string, error: ProtocolError, reason: string): void {
    const entry = this.#pending.get(requestId);
    if (!entry) return;
    this.#finish(entry);
    entry.reject(error);
    this.#deps.events.emit('sampling.settled', { requestId, reason, queueLength: this.#pending.size });
  }

  #finish(entry: Pending): void {
    clearTimeout(entry.timer);
    entry.detach();
    this.#pending.delete(entry.view.requestId);
  }
}

function rejected(message: string): ProtocolError {
  return new ProtocolError(USER_REJECTED, message);
}
