// The elicitation broker: a server's request (legacy elicitation/create or an MRTR input_required round, both
// arrive through the same SDK handler) becomes a queued UI request; the user's answer, a timeout, a closed
// session or the server's own "complete" notice settles it. With no window the person can see it declines at
// once, and closing the last window cancels what waits.
import { randomUUID } from 'node:crypto';
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import { parseElicitationSchema, validateElicitation, type ElicitValue } from '../../../shared/domains/resources-elicitation.js';
import type { ElicitationRequestView } from '../../../shared/domains/resources.js';
import { AppError } from '../../../shared/errors.js';
import type { EventBus } from '../event-bus.js';
import type { PresencePort } from '../presence.js';
import { boundForView } from '../ingress/view.js';
import { sanitizeText, truncate } from '../text.js';
import { checkExternalUrl } from '../url-policy.js';
import type { UrlOpener } from './url-opener.js';

/** The request parameters the SDK hands to the elicitation handler. */
export type ElicitParams = ElicitRequest['params'];

/** What the broker needs from its surroundings. */
export interface ElicitationBrokerDeps {
  /** Where requested/cancelled events go. */
  events: Pick<EventBus, 'emit'>;
  /** Whether the person can see a Switchboard window. */
  presence: PresencePort;
  /** Whether the user opted this server in to elicitation. */
  enabled(serverId: string): boolean;
  /** The person's consent to questions from this server: "deny" declines, "ask" makes the dialog ask first. */
  consent?(serverId: string): 'ask' | 'allow' | 'deny';
  /** The server's display name. */
  serverName(serverId: string): string;
  /** How long a request may wait for the user (config.timeouts.elicitationSecs). */
  timeoutMs(serverId: string): number;
  /** Opens a consented URL. */
  opener(): UrlOpener;
  /** Clock, for tests. */
  now?: () => number;
}

interface Pending {
  view: ElicitationRequestView;
  elicitationId?: string;
  settle: (result: ElicitResult) => void;
  timer: ReturnType<typeof setTimeout>;
  detach: () => void;
}

const MAX_MESSAGE = 4000;
const MAX_PENDING_PER_SERVER = 20;

/** Queues elicitation requests for the UI, one answer each, never hanging. */
export class ElicitationBroker {
  readonly #deps: ElicitationBrokerDeps;
  readonly #pending = new Map<string, Pending>();

  constructor(deps: ElicitationBrokerDeps) {
    this.#deps = deps;
    deps.presence.onChange(() => {
      if (!deps.presence.attached) this.cancelAll('The last Switchboard window was closed');
    });
  }

  /** Requests waiting for the user, oldest first. */
  pending(): ElicitationRequestView[] {
    return [...this.#pending.values()].map((p) => p.view);
  }

  /**
   * Handles one server request. Resolves with the user's answer; declines when the server is not opted in,
   * no UI is attached, the URL is unusable or too many requests are already waiting; cancels on timeout,
   * on `signal` (the server cancelled it) or when the server's session closes.
   */
  request(serverId: string, params: ElicitParams, signal?: AbortSignal): Promise<ElicitResult> {
    if (!this.#deps.enabled(serverId)) return Promise.resolve({ action: 'decline' });
    const consent = this.#deps.consent?.(serverId) ?? 'allow';
    if (consent === 'deny') return Promise.resolve({ action: 'decline' });
    if (!this.#deps.presence.visible) return Promise.resolve({ action: 'decline' });
    if (signal?.aborted) return Promise.resolve({ action: 'cancel' });
    if (this.pending().filter((v) => v.serverId === serverId).length >= MAX_PENDING_PER_SERVER)
      return Promise.resolve({ action: 'decline' });

    const now = this.#deps.now?.() ?? Date.now();
    const timeoutMs = this.#deps.timeoutMs(serverId);
    const view: ElicitationRequestView = {
      requestId: randomUUID(),
      serverId,
      serverName: sanitizeText(this.#deps.serverName(serverId)),
      mode: params.mode === 'url' ? 'url' : 'form',
      message: truncate(sanitizeText(params.message), MAX_MESSAGE),
      expiresAt: now + timeoutMs,
      consent,
    };
    let elicitationId: string | undefined;
    if (params.mode === 'url') {
      // The one URL policy: a refused URL (control or bidi characters, user info, plain http elsewhere, ...) never
      // reaches the dialog or the terminal; the server is told no.
      const verdict = checkExternalUrl(params.url, 'The requested link');
      if (!verdict.ok) return Promise.resolve({ action: 'decline' });
      view.url = verdict.url;
      view.urlDisplay = verdict.display;
      view.urlHost = verdict.host;
      view.urlWarnings = verdict.warnings;
      elicitationId = params.elicitationId;
    } else {
      const schema = boundForView(params.requestedSchema as Record<string, unknown>, 'The requested form');
      view.requestedSchema = schema.value;
      if (schema.notice !== undefined) view.notices = [schema.notice];
    }

    return new Promise<ElicitResult>((resolve) => {
      const onAbort = () => this.#cancel(view.requestId, 'The server withdrew the request');
      signal?.addEventListener('abort', onAbort, { once: true });
      const entry: Pending = {
        view,
        settle: resolve,
        timer: setTimeout(() => this.#cancel(view.requestId, `No answer within ${Math.round(timeoutMs / 1000)} s`), timeoutMs),
        detach: () => signal?.removeEventListener('abort', onAbort),
        ...(elicitationId !== undefined ? { elicitationId } : {}),
      };
      this.#pending.set(view.requestId, entry);
      this.#deps.events.emit('elicitation.requested', { request: view, queueLength: this.#pending.size });
    });
  }

  /**
   * The user's answer. Form answers are validated against the requested schema before anything is sent;
   * accepting a URL request opens exactly that URL through the opener (the user consented by accepting).
   */
  async respond(requestId: string, action: 'accept' | 'decline' | 'cancel', content?: Record<string, unknown>): Promise<void> {
    const entry = this.#pending.get(requestId);
    if (!entry) throw new AppError('not_found', 'This request is no longer waiting (it was answered, timed out or cancelled)');
    if (action !== 'accept') {
      this.#finish(entry, { action });
      this.#deps.events.emit('elicitation.cancelled', {
        requestId,
        reason: action === 'decline' ? 'Declined' : 'Cancelled',
        queueLength: this.#pending.size,
      });
      return;
    }
    if (entry.view.mode === 'url') {
      const url = entry.view.url ?? '';
      try {
        await this.#deps.opener().open(url);
      } catch (err) {
        throw err instanceof AppError ? err : new AppError('url_refused', 'The link could not be opened');
      }
      this.#finish(entry, { action: 'accept' });
      this.#deps.events.emit('elicitation.cancelled', { requestId, reason: 'Opened', queueLength: this.#pending.size });
      return;
    }
    const form = parseElicitationSchema(entry.view.requestedSchema);
    const checked = validateElicitation(form, content ?? {});
    if (!checked.ok) {
      const list = Object.entries(checked.errors).map(([k, v]) => `${k}: ${v}`);
      throw new AppError('invalid_request', `The answer does not match the requested form: ${list.join('; ')}`);
    }
    this.#finish(entry, { action: 'accept', content: checked.content as Record<string, ElicitValue> });
    this.#deps.events.emit('elicitation.cancelled', { requestId, reason: 'Answered', queueLength: this.#pending.size });
  }

  /** The server says a URL-mode interaction finished elsewhere: close its dialog if it is still open. */
  complete(serverId: string, elicitationId: string): void {
    for (const [id, entry] of this.#pending) {
      if (entry.view.serverId === serverId && entry.elicitationId === elicitationId)
        this.#cancel(id, 'The server reports the interaction is complete');
    }
  }

  /** Declines every pending request of a server (the person does not let it ask questions). */
  declineServer(serverId: string, reason: string): void {
    for (const [id, entry] of this.#pending) {
      if (entry.view.serverId !== serverId) continue;
      this.#finish(entry, { action: 'decline' });
      this.#deps.events.emit('elicitation.cancelled', { requestId: id, reason, queueLength: this.#pending.size });
    }
  }

  /** Marks a server's waiting requests as allowed (the person just said yes to the first question). */
  allowServer(serverId: string): void {
    for (const entry of this.#pending.values()) if (entry.view.serverId === serverId) entry.view.consent = 'allow';
  }

  /** Cancels every pending request of a server (its session closed or it was removed). */
  cancelServer(serverId: string, reason: string): void {
    for (const [id, entry] of this.#pending) if (entry.view.serverId === serverId) this.#cancel(id, reason);
  }

  /** Cancels everything (shutdown). */
  cancelAll(reason: string): void {
    for (const id of [...this.#pending.keys()]) this.#cancel(id, reason);
  }

  #cancel(requestId: string, reason: string): void {
    const entry = this.#pending.get(requestId);
    if (!entry) return;
    this.#finish(entry, { action: 'cancel' });
    this.#deps.events.emit('elicitation.cancelled', { requestId, reason, queueLength: this.#pending.size });
  }

  #finish(entry: Pending, result: ElicitResult): void {
    clearTimeout(entry.timer);
    entry.detach();
    this.#pending.delete(entry.view.requestId);
    entry.settle(result);
  }
}
