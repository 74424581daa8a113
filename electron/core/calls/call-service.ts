// The tool-call service behind tools.call / tools.cancel / calls.*: resolves the route through the catalog,
// applies the per-server concurrency policy and the logical deadline (queueing, setup, MRTR rounds and tasks
// included), runs the call, keeps the full audited envelope apart from the bounded presentation that crosses
// the bridge, emits call.progress / call.finished and records every call in the history.
import { randomUUID } from 'node:crypto';
import { SdkError, SdkErrorCode, SdkHttpError, UnauthorizedError, type Client } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/config.js';
import type { AppNotice } from '../../../shared/contract.js';
import type {
  AuditedEnvelope,
  CallError,
  CallOrigin,
  CallOutcome,
  CallProgress,
  CallStatus,
  HistoryEntry,
  Presentation,
} from '../../../shared/domains/calls.js';
import { AppError, type ErrorCode } from '../../../shared/errors.js';
import type { CatalogPort, ToolRoute } from '../catalog/catalog-port.js';
import type { EventBus } from '../event-bus.js';
import { sanitizeText } from '../text.js';
import { runToolCall, toolErrorResult, type ElicitationHandler, type RunOptions } from './call-runner.js';
import { HistoryStore } from './history-store.js';
import { taskSupportOf } from './legacy-tasks.js';
import { buildPresentation, errorPresentation } from './presentation.js';
import { jsonByteLength } from './result-size.js';
import { RunningCalls } from './running-calls.js';
import { CallScheduler } from './scheduler.js';
import { isObject, type JsonObject } from '../json.js';

/** What the call service needs from the rest of the core. */
export interface CallServiceDeps {
  /** Where call.progress and call.finished go. */
  events: Pick<EventBus, 'emit'>;
  /** A server's current definition (throws not_found). */
  config(serverId: string): ServerConfig;
  /** The connected SDK client of a server (connects when needed). */
  client(serverId: string): Promise<Client>;
  /** The server's SDK client when it is connected now (the usual call: no connect to wait for, nothing to abort). */
  connectedClient?(serverId: string): Client | undefined;
  /** The catalog tools are resolved through. */
  catalog(): CatalogPort | undefined;
  /** The history file; undefined keeps history in memory. */
  historyFile(): string | undefined;
  /** Why a server's session ended, when it did (told to the calls it ended). */
  closeReason?(serverId: string): string | undefined;
  /** Where storage problems (a corrupt history file, a failed write) are reported to the user. */
  notify?(notice: AppNotice): void;
  /** Answers MRTR elicitation rounds (the elicitation broker and its dialog); absent: rounds are refused. */
  elicit?: ElicitationHandler;
  /** The client features' part in calls (consent, refused server requests, sampling and roots for MRTR rounds). */
  features?: CallFeatureHooks;
  /** Where running calls are kept (shared with the per-Client hooks that relay a call's requests). */
  running?: RunningCalls;
  /**
   * Why no call may start now (the core is shutting down), asked as a call arrives and again as it would reach the
   * server: a session still up during shutdown serves no new call, whoever asks (the person, a gateway client, an app).
   */
  refuse?(serverId: string): AppError | undefined;
}

/** Envelopes kept for calls.result (most recent calls). */
export const ENVELOPE_COUNT = 200;
/** Total bytes of envelopes kept. */
export const ENVELOPE_BYTES = 256 * 1024 * 1024;
/** Media larger than this is not copied into the history file. */
const HISTORY_MEDIA_BYTES = 64 * 1024;

/** Where a call's server-initiated traffic goes when someone other than the person started it (a gateway client). */
export interface CallRelay {
  /** Answers the call's elicitations (MRTR rounds and legacy elicitation/create) instead of Switchboard's dialog. */
  elicit?: ElicitationHandler;
  /** Receives the server's log messages sent while the call runs. */
  log?: (params: JsonObject) => void;
  /** inputResponses the caller sent with its first request, passed to a 2026-07-28 server's first leg. */
  firstResponses?: JsonObject;
  /** The level to ask a 2026-07-28 server to log at during the call (the receiver filters further). */
  logLevel?: 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';
  /** Answers a 2025-11-25 server's sampling/createMessage during the call (rejects when declined or unanswered). */
  sample?: (params: JsonObject, signal: AbortSignal) => Promise<JsonObject>;
  /** Passes a 2026-07-28 server's input rounds (MRTR) on to whoever started the call, keys and requests unchanged. */
  round?: RoundRelay;
  /** Takes a 2026-07-28 server's task handle for the caller (true: taken), instead of Switchboard following the task. */
  task?: (handle: JsonObject) => boolean;
  /** Calls without the tasks extension (the caller did not declare it); told when the server requires it. */
  tasksRefused?: () => void;
}

/**
 * The relayed part of an MRTR round. The per-server settings still decide what may be answered at all (the runner
 * checks them first); `takes` only says which requests the caller answers instead of Switchboard's own dialogs.
 */
export interface RoundRelay {
  /** Whether the caller answers this request (it declared the capability, and the request is within its bounds). */
  takes(method: string, params: JsonObject): boolean;
  /** Asks the caller; resolves with its responses by key, or `undefined` when it did not answer in time or gave up. */
  answer(requests: Record<string, JsonObject>, signal: AbortSignal): Promise<Record<string, unknown> | undefined>;
}

/** Options of one call beyond its route and arguments. */
export interface CallOptions {
  /** Id of the call (generated when absent). */
  callId?: string;
  /** Who started it (recorded in the history; absent: the person). */
  origin?: CallOrigin;
  /** Aborts the call like tools.cancel (the caller gave up). */
  signal?: AbortSignal;
  /** Progress of this call, besides the call.progress event. */
  onProgress?: (p: CallProgress) => void;
  /** Elicitations and log messages of this call. */
  relay?: CallRelay;
  /** An earlier deadline than the server's call deadline (ms since epoch), e.g. when time was spent before the call. */
  deadlineAt?: number;
}

/** What calls ask of the client features (elicitation consent, requests refused because a setting is off). */
export interface CallFeatureHooks {
  /** Whether the person refused questions from this server. */
  consentDenied(serverId: string): boolean;
  /**
   * Where the refusals stand now; a mark taken as a call starts tells its refusals from the previous call's (a
   * millisecond clock cannot: two short calls often share one).
   */
  refusalMark(): number;
  /** Plain-words notes for requests the server made after `since` (a refusalMark) that a setting refused ("Turn on ..."). */
  refusals(serverId: string, since: number): string[];
  /** Answers a sampling request by hand (MRTR rounds). */
  sample(serverId: string, params: JsonObject, signal: AbortSignal): Promise<JsonObject>;
  /** The roots shared with a server (MRTR rounds). */
  listRoots(serverId: string): JsonObject;
}

/** True for an authorization failure from the SDK or the session layer. */
export function isAuthFailure(err: unknown): boolean {
  if (err instanceof UnauthorizedError) return true;
  if (err instanceof SdkHttpError && (err.status === 401 || err.status === 403)) return true;
  return err instanceof AppError && (err.code === 'auth_required' || err.code === 'authorization_required');
}

/** Runs and records tool calls. */
export class CallService {
  readonly #deps: CallServiceDeps;
  readonly #scheduler = new CallScheduler();
  readonly #running: RunningCalls;
  readonly #envelopes = new Map<string, { envelope: AuditedEnvelope; bytes: number }>();
  #envelopeBytes = 0;
  #history: HistoryStore | undefined;
  readonly #elicit: ElicitationHandler | undefined;
  readonly #features: CallFeatureHooks | undefined;
  /** The features' sampling and roots for MRTR rounds, made once (not per call). */
  readonly #roundHooks: Pick<RunOptions, 'sample' | 'listRoots'>;

  constructor(deps: CallServiceDeps) {
    this.#deps = deps;
    this.#running = deps.running ?? new RunningCalls();
    this.#elicit = deps.elicit;
    const features = deps.features;
    this.#features = features;
    this.#roundHooks = features
      ? {
          sample: (id: string, p: JsonObject, signal: AbortSignal) => features.sample(id, p, signal),
          listRoots: (id: string) => features.listRoots(id),
        }
      : {};
  }

  /** The history (opened on first use). */
  get history(): HistoryStore {
    this.#history ??= new HistoryStore(this.#deps.historyFile(), { onNotice: (n) => this.#deps.notify?.(n) });
    return this.#history;
  }

  /** tools.call: resolves the local name through the catalog, then runs the call. */
  async call(args: { name: string; arguments: Record<string, unknown>; callId?: string }): Promise<CallOutcome> {
    const catalog = this.#deps.catalog();
    if (!catalog) throw new AppError('not_found', 'The tool catalog is not available yet, so tools cannot be called by name');
    const route = await catalog.route(args.name);
    return this.callRoute(route, args.arguments, args.callId);
  }

  /** Runs a call on a resolved route (the catalog validates it again once the call is admitted). */
  async callRoute(route: ToolRoute, args: Record<string, unknown>, callIdOrOptions?: string | CallOptions): Promise<CallOutcome> {
    const opts: CallOptions = typeof callIdOrOptions === 'string' ? { callId: callIdOrOptions } : (callIdOrOptions ?? {});
    const callId = opts.callId ?? randomUUID();
    if (this.#running.has(callId)) throw new AppError('invalid_request', `A call with id ${callId} is already running`);
    const config = this.#deps.config(route.serverId);
    const started = Date.now();
    const refusalMark = this.#features?.refusalMark() ?? 0;
    const controller = new AbortController();
    this.#running.set(callId, { controller, serverId: route.serverId, ...(opts.relay ? { relay: opts.relay } : {}) });
    const onCallerAbort = (): void => controller.abort(new AppError('cancelled', 'The call was cancelled.', { serverId: route.serverId }));
    if (opts.signal?.aborted) onCallerAbort();
    else opts.signal?.addEventListener('abort', onCallerAbort, { once: true });
    const deadlineMs = Math.max(0, Math.min(config.timeouts.callSecs * 1000, (opts.deadlineAt ?? Infinity) - started));
    const deadline = setTimeout(
      () =>
        controller.abort(
          new AppError(
            'timeout',
            `The call did not finish within its ${config.timeouts.callSecs} s deadline (queueing, connecting, input rounds and tasks included).`,
            {
              serverId: route.serverId,
            },
          ),
        ),
      deadlineMs,
    );
    const progress = (p: Omit<CallProgress, 'callId'>): void => {
      const full: CallProgress = { callId, ...p };
      this.#deps.events.emit('call.progress', full);
      opts.onProgress?.(full);
    };
    const elicit = opts.relay?.elicit ?? this.#elicit;
    let release: (() => void) | undefined;
    let releaseCatalog: (() => void) | undefined;
    let raw: JsonObject;
    let status: CallStatus;
    let error: CallOutcome['error'];
    let presentation: Presentation;
    try {
      this.#refuseIfClosing(route.serverId);
      // 'queued' is said when the call waits (for its turn on the server, or for a connection); one admitted at once
      // to a connected server goes straight to 'running', one event fewer for every viewer of every call.
      let queued = false;
      const waits = (): void => {
        if (queued) return;
        queued = true;
        progress({ phase: 'queued' });
      };
      const readOnly = route.tool.annotations?.readOnlyHint === true;
      release = this.#scheduler.tryAcquire(route.serverId, config.concurrency, readOnly);
      if (release === undefined) {
        waits();
        release = await this.#scheduler.acquire(route.serverId, config.concurrency, readOnly, controller.signal);
      }
      const catalog = this.#deps.catalog();
      // A publication already waiting goes first (then this call's route is checked against it).
      await catalog?.whenPublishable(route.serverId, controller.signal);
      releaseCatalog = catalog?.beginCall(route.serverId);
      catalog?.validate(route);
      let client = this.#deps.connectedClient?.(route.serverId);
      if (client === undefined) {
        waits();
        client = await abortable(this.#deps.client(route.serverId), controller.signal);
      }
      // Shutdown may have begun while the call queued or connected: it still does not reach the server.
      this.#refuseIfClosing(route.serverId);
      const run = await runToolCall({
        client,
        serverId: route.serverId,
        originalName: route.originalName,
        args,
        config,
        signal: controller.signal,
        onProgress: progress,
        taskSupport: taskSupportOf(route.tool),
        consentDenied: this.#features?.consentDenied(route.serverId) ?? false,
        ...this.#roundHooks,
        ...(elicit ? { elicit } : {}),
        ...(opts.relay ? relayOptions(opts.relay) : {}),
        whileWaiting: async <T>(wait: () => Promise<T>): Promise<T> => {
          release?.();
          release = undefined;
          try {
            return await wait();
          } finally {
            release = await this.#scheduler.acquire(route.serverId, config.concurrency, readOnly, controller.signal);
          }
        },
      });
      raw = run.result;
      presentation = buildPresentation(raw, config.limits);
      if (run.taskCancelled) {
        status = 'cancelled';
        error = run.hostError;
      } else if (run.hostError) {
        status = 'error';
        error = run.hostError;
      } else if (raw.isError === true) {
        status = 'error';
        error = { code: 'tool_error', message: presentation.text.slice(0, 300) || 'The tool reported an error' };
      } else status = 'ok';
    } catch (err) {
      const failure = this.#classify(err, controller.signal, route.serverId, config);
      status = failure.status;
      error = { code: failure.code, message: failure.message };
      raw = failure.result;
      presentation = failure.presentation;
    } finally {
      clearTimeout(deadline);
      opts.signal?.removeEventListener('abort', onCallerAbort);
      release?.();
      releaseCatalog?.();
      this.#running.delete(callId);
    }

    if (status === 'error' && this.#features) {
      // The server asked for something a setting refuses (sampling, roots, questions): say which setting.
      const notes = this.#features.refusals(route.serverId, refusalMark);
      if (notes.length > 0) {
        error = { code: 'feature_not_enabled', message: notes.join(' ') };
        presentation = { ...presentation, notices: [...notes, ...presentation.notices] };
      }
    }
    const durationMs = Date.now() - started;
    const bytes = this.#keepEnvelope({ serverId: route.serverId, originalName: route.originalName, callId, result: raw });
    const outcome: CallOutcome = {
      callId,
      status,
      presentation,
      durationMs,
      serverId: route.serverId,
      tool: route.localName,
      resultBytes: bytes,
      ...(error ? { error } : {}),
    };
    this.history.add(this.#historyEntry(route, args, started, outcome, opts.origin));
    this.#deps.events.emit('call.finished', outcome);
    return outcome;
  }

  /**
   * Records a call that was refused before it reached the server (e.g. a gateway client's call the person
   * denied): it appears in the history like any call, as a tool-level error.
   */
  recordRefusal(
    route: ToolRoute,
    args: Record<string, unknown>,
    opts: { callId?: string; origin?: CallOrigin; startedAt: number },
    error: CallError,
  ): CallOutcome {
    const outcome: CallOutcome = {
      callId: opts.callId ?? randomUUID(),
      status: 'error',
      presentation: errorPresentation(error.message),
      durationMs: Date.now() - opts.startedAt,
      serverId: route.serverId,
      tool: route.localName,
      error,
    };
    this.history.add(this.#historyEntry(route, args, opts.startedAt, outcome, opts.origin));
    this.#deps.events.emit('call.finished', outcome);
    return outcome;
  }

  /**
   * Where server-initiated traffic of a server goes now: the relay of its only running call, when that call has
   * one. With several calls running on the server, a request cannot be told apart, so none is returned.
   */
  relayFor(serverId: string): CallRelay | undefined {
    return this.#running.relayFor(serverId);
  }

  /** tools.cancel: aborts a running call (the SDK sends notifications/cancelled; a task gets tasks/cancel). */
  cancel(callId: string): void {
    const running = this.#running.get(callId);
    if (!running) throw new AppError('not_found', `No running call ${callId}`);
    running.controller.abort(new AppError('cancelled', 'The call was cancelled.', { serverId: running.serverId }));
  }

  /** calls.result: the full audited envelope of a recent call. */
  result(callId: string): AuditedEnvelope {
    const kept = this.#envelopes.get(callId);
    if (!kept) {
      const known = this.history.get(callId);
      throw new AppError(
        'not_found',
        known
          ? 'The full result of this call is no longer kept (only recent calls of this session are); the history keeps its presentation.'
          : `No call ${callId}`,
      );
    }
    return kept.envelope;
  }

  /** Ids of running calls. */
  runningIds(): string[] {
    return [...this.#running.keys()];
  }

  /** Writes pending history changes (when the history was opened at all). */
  async flushHistory(): Promise<void> {
    await this.#history?.flush();
  }

  #refuseIfClosing(serverId: string): void {
    const refusal = this.#deps.refuse?.(serverId);
    if (refusal) throw refusal;
  }

  /** Walks away from every running call (tasks are cancelled best-effort) and writes the history. */
  async dispose(): Promise<void> {
    for (const r of this.#running.values())
      r.controller.abort(new AppError('cancelled', 'Switchboard is closing.', { serverId: r.serverId }));
    const end = Date.now() + 2500;
    while (this.#running.size > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    await this.#history?.flush();
  }

  #historyEntry(
    route: ToolRoute,
    args: Record<string, unknown>,
    startedAt: number,
    outcome: CallOutcome,
    origin: CallOrigin | undefined,
  ): HistoryEntry {
    const shown = outcome.presentation;
    // Most results carry no large media: the outcome's presentation is then shared, not copied.
    const presentation = shown.media.some((m) => m.bytes > HISTORY_MEDIA_BYTES)
      ? { ...shown, media: shown.media.map((m) => (m.bytes > HISTORY_MEDIA_BYTES ? { ...m, data: '' } : m)) }
      : shown;
    return {
      callId: outcome.callId,
      serverId: route.serverId,
      tool: route.localName,
      originalName: route.originalName,
      arguments: args,
      startedAt,
      durationMs: outcome.durationMs,
      status: outcome.status,
      presentation,
      ...(outcome.error ? { error: outcome.error } : {}),
      ...(origin && origin.kind !== 'person' ? { origin } : {}),
    };
  }

  #keepEnvelope(envelope: AuditedEnvelope): number {
    // Counted without building the JSON text (an 8 MiB result would be copied on the main thread just to count it).
    const bytes = jsonByteLength(envelope.result);
    this.#envelopes.set(envelope.callId, { envelope, bytes });
    this.#envelopeBytes += bytes;
    for (const [id, kept] of this.#envelopes) {
      if (this.#envelopes.size <= ENVELOPE_COUNT && this.#envelopeBytes <= ENVELOPE_BYTES) break;
      if (id === envelope.callId) break;
      this.#envelopes.delete(id);
      this.#envelopeBytes -= kept.bytes;
    }
    return bytes;
  }

  #classify(
    err: unknown,
    signal: AbortSignal,
    serverId: string,
    config: ServerConfig,
  ): { status: CallStatus; code: ErrorCode; message: string; result: JsonObject; presentation: Presentation } {
    const fail = (status: CallStatus, code: ErrorCode, message: string, result?: JsonObject) => ({
      status,
      code,
      message,
      result: result ?? toolErrorResult(message),
      presentation: errorPresentation(message),
    });
    if (signal.aborted) {
      const reason: unknown = signal.reason;
      if (reason instanceof AppError && reason.code === 'timeout') return fail('timeout', 'timeout', reason.message);
      return fail('cancelled', 'cancelled', reason instanceof AppError ? reason.message : 'The call was cancelled.');
    }
    if (isAuthFailure(err)) {
      const body = { error: { code: 'authorization_required', server_id: serverId } };
      const text = JSON.stringify(body);
      return {
        ...fail(
          'error',
          'authorization_required',
          `${config.name} needs you to sign in again before this tool can run.`,
          toolErrorResult(text),
        ),
        presentation: errorPresentation(text),
      };
    }
    if (err instanceof AppError) return fail(err.code === 'timeout' ? 'timeout' : 'error', err.code, err.message);
    if (SdkError.isInstance(err)) {
      const e = err as SdkError;
      if (e.code === SdkErrorCode.RequestTimeout) {
        return fail('timeout', 'timeout', `The server did not answer within ${config.timeouts.requestSecs} s.`);
      }
      if (e.code === SdkErrorCode.ConnectionClosed || e.code === SdkErrorCode.NotConnected) {
        const why = this.#deps.closeReason?.(serverId);
        return fail(
          'error',
          'connection_closed',
          `The connection to the server closed during the call${why ? `: ${why}` : '.'} Tool calls are not retried.`,
        );
      }
      return fail('error', 'server_error', `The call failed: ${sanitizeText(e.message).slice(0, 500)}`);
    }
    if (err instanceof Error && err.message === 'Not connected') {
      return fail('error', 'connection_closed', 'The server is not connected. Tool calls are not retried.');
    }
    if (isObject(err) && typeof (err as { code?: unknown }).code === 'number') {
      const e = err as unknown as { code: number; message?: unknown };
      return fail(
        'error',
        'server_error',
        `The server refused the call (${e.code}): ${sanitizeText(String(e.message ?? '')).slice(0, 500)}`,
      );
    }
    return fail('error', 'internal', 'The call failed unexpectedly.');
  }
}

/** The run options a caller's relay adds (only those it sets). */
function relayOptions(relay: CallRelay): Partial<RunOptions> {
  const o: Partial<RunOptions> = {};
  if (relay.round) o.relayRound = relay.round;
  if (relay.task) o.takeTask = relay.task;
  if (relay.tasksRefused) o.tasksRefused = relay.tasksRefused;
  if (relay.logLevel) o.logLevel = relay.logLevel;
  if (relay.firstResponses) o.firstResponses = relay.firstResponses;
  return o;
}

/** Rejects with the signal's reason when it fires first. */
function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
