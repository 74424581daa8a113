// A gateway client's tools/call: the same catalog route (pins: a changed tool is refused with the same reason),
// the same call service (concurrency, deadlines, presentation, history with the client's name) as a call from
// the UI. On top: the profile boundary, the write policy (allow / deny / ask, the wait bounded by the call's
// deadline; a server's annotations are hints for the person, never a permission: only the tools the person
// allowed for this client, each pinned to the definition they saw, skip the ask or pass a deny), progress and cancellation both ways, the server's log messages, and its requests for input:
// a 2026-07-28 server's MRTR rounds go to the client as input_required rounds with the server's own keys and
// requests (elicitation, sampling, roots: each only when the client declared it and the server's setting for it is
// on), a 2025-11-25 server's elicitation/create as a one-request round (the SDK turns rounds into server requests on
// 2025-11-25 gateway sessions); whatever the client cannot answer goes to Switchboard's own dialogs. The server's
// requestState never leaves Switchboard: the client gets a fresh single-use token per round instead.
import { randomBytes } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode, type CallToolResult, type InputRequest } from '@modelcontextprotocol/server';
import type { ServerConfig } from '../../../shared/config.js';
import type { CallError, CallOrigin, CallOutcome, CallProgress } from '../../../shared/domains/calls.js';
import type { GatewayActivity, GatewayRequestView } from '../../../shared/domains/gateway.js';
import { AppError } from '../../../shared/errors.js';
import type { ElicitationAnswer, ElicitationHandler } from '../calls/call-runner.js';
import type { CallOptions, CallRelay, RoundRelay } from '../calls/call-service.js';
import type { ToolRoute } from '../catalog/catalog-port.js';
import { parseElicitParams } from '../elicitation/elicit-params.js';
import { ARGUMENTS_MAX_BYTES } from '../ingress/arguments.js';
import { isObject, type JsonObject } from '../json.js';
import { sanitizeText, truncate } from '../text.js';
import type { AskBroker, AskOutcome } from './ask-broker.js';
import type { ProfileView } from './profile.js';
import { missingSecretsMessage, toCallToolResult, toolError } from './result-convert.js';
import type { GatewayCatalog, VisibleTools } from './tool-listing.js';
import type { RoundTasks } from './tasks/task-surface.js';

/** Bytes of structured content a gateway result may carry (the discovery output budget). */
export const STRUCTURED_BYTES = 256 * 1024;
/** Characters of arguments shown in an ask dialog; the rest is opened on demand (gateway.requestArguments). */
export const ASK_ARGUMENT_CHARS = 8 * 1024;
/** Characters of the whole arguments text: the ingress bound on arguments, so nothing a client may send is left out. */
export const FULL_ARGUMENT_CHARS = ARGUMENTS_MAX_BYTES;
/** Calls of one client that may wait for the client's input at once. */
export const MAX_PARKED_PER_CLIENT = 256;
const MAX_LOG_BYTES = 16 * 1024;
/** Bytes of one relayed elicitation request, and of one relayed sampling request (larger ones go to Switchboard's dialogs). */
export const RELAY_ELICIT_BYTES = 64 * 1024;
export const RELAY_SAMPLING_BYTES = 1024 * 1024;

/** What the gateway's calls use from the host. */
export interface GatewayCallDeps {
  catalog: GatewayCatalog;
  calls: {
    callRoute(route: ToolRoute, args: Record<string, unknown>, opts: CallOptions): Promise<CallOutcome>;
    recordRefusal(
      route: ToolRoute,
      args: Record<string, unknown>,
      opts: { origin: CallOrigin; startedAt: number },
      error: CallError,
    ): CallOutcome;
    result(callId: string): { result: unknown };
  };
  config(serverId: string): ServerConfig;
  /** Secrets a server's approved launch had that are no longer stored (its launch is refused until they are entered). */
  missingSecrets?(config: ServerConfig): readonly string[];
  asks: AskBroker;
  /** Whether the person allowed this tool, as defined now, for this client (a changed definition is not). */
  trusted(clientId: string, route: ToolRoute): boolean;
  /** Remembers the person's "always allow this tool for this client" (pinned to the route's definition); never throws, reports its own failure. */
  trust(clientId: string, route: ToolRoute): Promise<void>;
  /** Switchboard's own elicitation dialog. */
  dialog: ElicitationHandler;
  activity(entry: Omit<GatewayActivity, 'seq' | 'at'>): void;
}

/** The client side of one tools/call request (one round). */
export interface RoundContext {
  client: { id: string; name: string };
  view: ProfileView;
  visible(): VisibleTools;
  signal: AbortSignal;
  progressToken?: string | number;
  notify(notification: { method: string; params: JsonObject }): Promise<void>;
  log?: (level: string, data: unknown, logger?: string) => Promise<void>;
  /** Elicitation modes the client declared. */
  elicitation: { form: boolean; url: boolean };
  /** Whether the client declared sampling, and roots (absent: not declared). */
  sampling?: boolean;
  roots?: boolean;
  requestState?: string;
  inputResponses?: Record<string, unknown>;
  /** The tasks extension on a 2026-07-28 request (absent: a 2025-11-25 session, or no tasks relay). */
  tasks?: RoundTasks;
}

/** A round of requests the client is asked to answer; its token is the requestState the client must echo. */
interface InputWait {
  token: string;
  requests: Record<string, InputRequest>;
  answer: (responses: Record<string, unknown> | undefined) => void;
}

/** A call in flight that may pause for the client's input between requests. */
class Parked {
  readonly clientId: string;
  readonly abort = new AbortController();
  done: Promise<CallToolResult> = Promise.resolve(toolError('not started'));
  finished = false;
  round: RoundContext;
  input: InputWait | undefined;
  /** The CreateTaskResult the client gets when the server's task was handed to it. */
  task: JsonObject | undefined;
  /** The -32021 the client gets when the server runs the tool only as a task and the client did not negotiate tasks. */
  refusal: Error | undefined;
  #wake: (() => void) | undefined;
  #lastProgress = -Infinity;
  #rounds = 0;
  /** Progress notifications on their way to the client; the result waits for them (order on the wire). */
  readonly #sending = new Set<Promise<void>>();

  constructor(round: RoundContext) {
    this.round = round;
    this.clientId = round.client.id;
  }

  /**
   * Attaches a request (round) to the call: its signal cancels the call, progress and logs go to it. Returns the
   * detach function, run when the round ends by asking for input (its exchange then closes normally).
   */
  attach(round: RoundContext): () => void {
    this.round = round;
    this.#lastProgress = -Infinity;
    const onAbort = (): void => this.abort.abort();
    if (round.signal.aborted) onAbort();
    else round.signal.addEventListener('abort', onAbort, { once: true });
    return () => round.signal.removeEventListener('abort', onAbort);
  }

  /** Resolves once the call finished or needs input. */
  next(): Promise<void> {
    if (this.finished || this.input) return Promise.resolve();
    return new Promise((resolve) => (this.#wake = resolve));
  }

  wake(): void {
    const w = this.#wake;
    this.#wake = undefined;
    w?.();
  }

  progress(p: CallProgress): void {
    const { progressToken, notify } = this.round;
    if (progressToken === undefined || p.progress === undefined || !(p.progress > this.#lastProgress)) return;
    this.#lastProgress = p.progress;
    const params: JsonObject = { progressToken, progress: p.progress };
    if (p.total !== undefined) params.total = p.total;
    if (p.message !== undefined) params.message = p.message;
    const sent = notify({ method: 'notifications/progress', params }).catch(() => undefined);
    this.#sending.add(sent);
    void sent.finally(() => this.#sending.delete(sent));
  }

  /** Resolves once every progress notification sent so far is on its way. */
  async flushed(): Promise<void> {
    await Promise.all([...this.#sending]);
  }

  log(params: JsonObject): void {
    const log = this.round.log;
    if (!log || typeof params.level !== 'string') return;
    let size: number;
    try {
      size = Buffer.byteLength(JSON.stringify(params.data) ?? '', 'utf8');
    } catch {
      return;
    }
    if (size > MAX_LOG_BYTES) return;
    const data = typeof params.data === 'string' ? sanitizeText(params.data) : params.data;
    const logger = typeof params.logger === 'string' ? truncate(sanitizeText(params.logger), 200) : undefined;
    void log(params.level, data, logger).catch(() => undefined);
  }

  /**
   * Asks the client one round of requests (one round at a time), until the timeout or the server withdraws it;
   * resolves with the client's responses by key, or undefined when none came.
   */
  ask(requests: Record<string, InputRequest>, timeoutMs: number, signal: AbortSignal): Promise<Record<string, unknown> | undefined> {
    const token = randomBytes(18).toString('base64url');
    return new Promise((resolve) => {
      const finish = (responses: Record<string, unknown> | undefined): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        if (this.input?.token === token) this.input = undefined;
        this.onWaitEnd?.(token);
        resolve(responses);
      };
      const timer = setTimeout(() => finish(undefined), timeoutMs);
      const onAbort = (): void => finish(undefined);
      if (signal.aborted) return finish(undefined);
      signal.addEventListener('abort', onAbort, { once: true });
      this.input = { token, requests, answer: finish };
      this.wake();
    });
  }

  /** Told when a round's token stops being valid (answered, timed out, withdrawn). */
  onWaitEnd: ((token: string) => void) | undefined;

  /** A 2025-11-25 server's elicitation/create, asked as a one-request round. */
  async elicit(params: JsonObject, timeoutMs: number, signal: AbortSignal): Promise<ElicitationAnswer> {
    this.#rounds++;
    const key = `sb${this.#rounds}`;
    const responses = await this.ask({ [key]: { method: 'elicitation/create', params } as InputRequest }, timeoutMs, signal);
    return elicitationAnswer(responses?.[key]);
  }
}

/** A client's answer to an elicitation, in the shape the server expects (anything else: cancel). */
function elicitationAnswer(response: unknown): ElicitationAnswer {
  return isObject(response) && (response.action === 'accept' || response.action === 'decline' || response.action === 'cancel')
    ? { action: response.action, ...(isObject(response.content) ? { content: response.content } : {}) }
    : { action: 'cancel' };
}

/**
 * The client's responses to a round, checked before the server sees them: only the keys that were asked, each in
 * the shape of its method's result (elicitation: an action; sampling: a message; roots: a list), within the ingress
 * bound. A key the client left out stays out (the server asks again, or decides).
 */
export function checkResponses(
  requests: Record<string, InputRequest>,
  given: Record<string, unknown> | undefined,
): Record<string, unknown> {
  if (given !== undefined && jsonBytes(given) > ARGUMENTS_MAX_BYTES)
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `inputResponses are over the ${ARGUMENTS_MAX_BYTES}-byte bound`);
  const out: Record<string, unknown> = {};
  for (const [key, request] of Object.entries(requests)) {
    if (given === undefined || !Object.hasOwn(given, key)) continue;
    const response = given[key];
    if (request.method === 'elicitation/create') out[key] = elicitationAnswer(response);
    else if (request.method === 'sampling/createMessage') {
      if (!isObject(response) || typeof response.role !== 'string' || !isObject(response.content))
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `inputResponses.${truncate(sanitizeText(key), 100)} is not a sampling result`,
        );
      out[key] = response;
    } else if (request.method === 'roots/list') {
      if (!isObject(response) || !Array.isArray(response.roots))
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `inputResponses.${truncate(sanitizeText(key), 100)} is not a roots list`);
      out[key] = response;
    }
  }
  return out;
}

/**
 * The answers a client sent with a call's first request (a stateless server's own keys), passed on only when
 * everything the server may ask for would have gone to this client anyway: for each of elicitation, sampling and
 * roots that the server's settings allow, the client declared it. Otherwise Switchboard's dialogs would have
 * answered, and a pre-supplied answer must not stand in for the person's. Only object values, within the bound.
 */
export function firstResponses(
  round: Pick<RoundContext, 'inputResponses' | 'elicitation' | 'sampling' | 'roots'>,
  config: ServerConfig,
): { firstResponses?: JsonObject } {
  const given = round.inputResponses;
  if (given === undefined || !isObject(given)) return {};
  const covered =
    (!config.elicitation || round.elicitation.form) &&
    (!config.sampling || round.sampling === true) &&
    (!config.roots || round.roots === true);
  if (!covered || jsonBytes(given) > ARGUMENTS_MAX_BYTES) return {};
  const kept = Object.fromEntries(Object.entries(given).filter(([, v]) => isObject(v)));
  return Object.keys(kept).length > 0 ? { firstResponses: kept as JsonObject } : {};
}

/** Whether a server's request can go to this client: it declared the capability, and the request is within bounds. */
export function relayable(client: Pick<RoundContext, 'elicitation' | 'sampling' | 'roots'>, method: string, params: JsonObject): boolean {
  if (method === 'elicitation/create') {
    const request = parseElicitParams(params);
    if (!request) return false;
    const supported = request.mode === 'url' ? client.elicitation.url : client.elicitation.form;
    return supported && jsonBytes(request) <= RELAY_ELICIT_BYTES;
  }
  if (method === 'sampling/createMessage') return client.sampling === true && jsonBytes(params) <= RELAY_SAMPLING_BYTES;
  if (method === 'roots/list') return client.roots === true;
  return false;
}

/** A server's requests as the client gets them (elicitation re-built from its checked shape). */
export function asClientRequests(requests: Record<string, unknown>): Record<string, InputRequest> {
  const asked: Record<string, InputRequest> = {};
  for (const [key, request] of Object.entries(requests)) {
    const r = isObject(request) ? request : {};
    const params = isObject(r.params) ? r.params : {};
    const method = String(r.method);
    asked[key] = (method === 'elicitation/create' ? { method, params: parseElicitParams(params) } : { method, params }) as InputRequest;
  }
  return asked;
}

function jsonBytes(value: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
  } catch {
    return Infinity;
  }
}

/** Runs gateway clients' tool calls. */
export class GatewayCalls {
  readonly #deps: GatewayCallDeps;
  readonly #parked = new Set<Parked>();
  /** Unfinished calls by client (the per-client cap is checked on every call: no walk over every call in flight). */
  readonly #runningBy = new Map<string, number>();
  /** Calls waiting for a round's answer, by the round's token (single use: a token is dropped once answered). */
  readonly #byState = new Map<string, Parked>();

  constructor(deps: GatewayCallDeps) {
    this.#deps = deps;
  }

  /** Calls running for a client (including ones waiting for its input). */
  running(clientId: string): number {
    return this.#runningBy.get(clientId) ?? 0;
  }

  /** Cancels a client's calls (removed) or every call (gateway off). */
  cancelAll(clientId?: string): void {
    for (const p of this.#parked) if (clientId === undefined || p.clientId === clientId) p.abort.abort();
  }

  /** One tools/call round of a gateway client. */
  async call(round: RoundContext, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    if (round.requestState !== undefined) return this.#resume(round);
    const visible = round.visible();
    const local = visible.byName.get(name)?.localName ?? (round.view.original ? undefined : name);
    if (local === undefined) {
      // An original-names profile sees one server: while its secrets are lost it lists nothing, so any name is its.
      const [only] = round.view.original ? round.view.servers() : [];
      const missing = only === undefined ? [] : (this.#deps.missingSecrets?.(this.#deps.config(only)) ?? []);
      if (only !== undefined && missing.length > 0)
        return toolError(missingSecretsMessage(sanitizeText(this.#deps.config(only).name), missing));
      return toolError(`Unknown tool: ${truncate(sanitizeText(name), 200)}`);
    }
    // Resolve the route only for servers the profile sees; anything else is as unknown as a missing tool.
    let serverId: string | undefined = visible.byLocal.get(local)?.serverId;
    if (serverId === undefined) {
      try {
        const detail = this.#deps.catalog.tool(local);
        serverId = detail.appOnly ? undefined : detail.serverId;
      } catch {
        serverId = undefined;
      }
    }
    if (serverId === undefined) {
      // Not listed since a restart lost the server's secrets: say which secret and how to fix it, not "Unknown tool".
      const lost = this.#deps.catalog.lostSecretTool?.(local);
      if (lost?.serverId !== undefined && round.view.sees(lost.serverId))
        return toolError(missingSecretsMessage(sanitizeText(this.#deps.config(lost.serverId).name), lost.evidence?.missingSecrets ?? []));
    }
    if (serverId === undefined || !round.view.sees(serverId)) return toolError(`Unknown tool: ${truncate(sanitizeText(name), 200)}`);
    let route: ToolRoute;
    try {
      route = await this.#deps.catalog.route(local, round.signal);
    } catch (err) {
      return toolError(err instanceof AppError ? err.message : 'The tool could not be resolved.');
    }
    if (route.appOnly || route.serverId !== serverId) return toolError(`Unknown tool: ${truncate(sanitizeText(name), 200)}`);
    const config = this.#deps.config(route.serverId);
    const origin: CallOrigin = { kind: 'gateway', clientId: round.client.id, clientName: round.client.name };
    const startedAt = Date.now();
    const deadlineAt = startedAt + config.timeouts.callSecs * 1000;
    const refusal = await this.#policy(round, route, config, args, deadlineAt);
    if (refusal) {
      this.#deps.calls.recordRefusal(route, args, { origin, startedAt }, refusal);
      this.#deps.activity({
        clientId: round.client.id,
        clientName: round.client.name,
        kind: 'denied',
        tool: route.localName,
        message: refusal.message,
      });
      return toolError(refusal.message);
    }
    if (this.running(round.client.id) >= MAX_PARKED_PER_CLIENT)
      return toolError(`This client already has ${MAX_PARKED_PER_CLIENT} calls running; wait for some to finish.`);
    const parked = new Parked(round);
    const detach = parked.attach(round);
    this.#parked.add(parked);
    const clientId = round.client.id;
    this.#runningBy.set(clientId, (this.#runningBy.get(clientId) ?? 0) + 1);
    parked.onWaitEnd = (token) => {
      if (this.#byState.get(token) === parked) this.#byState.delete(token);
    };
    const relay: CallRelay = {
      log: (params) => parked.log(params),
      // Everything from debug up: the client's own threshold is applied where the messages leave for it.
      ...(round.log ? { logLevel: 'debug' as const } : {}),
      ...(round.elicitation.form || round.elicitation.url ? { elicit: this.#relayElicit(parked, config) } : {}),
      round: this.#relayRound(parked, config),
      ...(round.sampling ? { sample: (params: JsonObject, signal: AbortSignal) => this.#relaySample(parked, config, params, signal) } : {}),
      ...firstResponses(round, config),
      // A 2026-07-28 client that negotiated tasks gets the server's task; one that did not is called as it asked (a
      // server that runs the tool only as a task refuses, and the client gets that -32021); 2025-11-25 sessions,
      // which cannot negotiate the extension, get the finished result (Switchboard follows the task).
      ...(round.tasks?.negotiated ? { task: (handle: JsonObject) => this.#takeTask(parked, round.tasks!, route, handle) } : {}),
      ...(round.tasks && !round.tasks.negotiated ? { tasksRefused: () => (parked.refusal = round.tasks!.refusal()) } : {}),
    };
    parked.done = this.#deps.calls
      .callRoute(route, args, {
        origin,
        signal: parked.abort.signal,
        onProgress: (p) => parked.progress(p),
        relay,
        deadlineAt,
      })
      .then((outcome) => {
        const result = this.#finish(parked, route, config, outcome, round.client);
        return parked.task ? (parked.task as CallToolResult) : result;
      })
      .catch((err: unknown) => toolError(err instanceof AppError ? err.message : 'The call failed unexpectedly.'))
      .finally(() => {
        parked.finished = true;
        const left = (this.#runningBy.get(clientId) ?? 1) - 1;
        if (left > 0) this.#runningBy.set(clientId, left);
        else this.#runningBy.delete(clientId);
        parked.wake();
        setTimeout(() => this.#parked.delete(parked), 0);
      });
    return this.#await(parked, detach);
  }

  /**
   * The next round of a call that asked the client for input. A requestState this gateway did not issue for one of
   * this client's waiting rounds (forged, altered, replayed, or the round ended) is refused as invalid params.
   */
  async #resume(round: RoundContext): Promise<CallToolResult> {
    const state = round.requestState ?? '';
    const parked = this.#byState.get(state);
    const wait = parked?.input;
    if (!parked || parked.clientId !== round.client.id || parked.finished || wait?.token !== state)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        'requestState does not match a round of this client that is waiting for input (it ended, timed out, was answered already or was altered). Call the tool again.',
      );
    const responses = checkResponses(wait.requests, round.inputResponses);
    this.#byState.delete(state);
    const detach = parked.attach(round);
    wait.answer(responses);
    return this.#await(parked, detach);
  }

  async #await(parked: Parked, detach: () => void): Promise<CallToolResult> {
    await parked.next();
    if (!parked.finished && parked.input) {
      detach();
      this.#byState.set(parked.input.token, parked);
      return {
        resultType: 'input_required',
        inputRequests: parked.input.requests,
        requestState: parked.input.token,
      } as unknown as CallToolResult;
    }
    const result = await parked.done;
    await parked.flushed();
    if (parked.refusal) throw parked.refusal;
    return result;
  }

  /**
   * The MRTR relay of a call: requests the client declared it can answer go to it, under the server's keys
   * (elicitation re-built from its checked shape, each within a bound); the rest stay with Switchboard.
   */
  #relayRound(parked: Parked, config: ServerConfig): RoundRelay {
    return {
      takes: (method, params) => relayable(parked.round, method, params),
      answer: (requests, signal) => parked.ask(asClientRequests(requests), config.timeouts.elicitationSecs * 1000, signal),
    };
  }

  /** Hands the server's task to the client (its CreateTaskResult ends the call); an unusable handle is followed as before. */
  #takeTask(parked: Parked, tasks: RoundTasks, route: ToolRoute, handle: JsonObject): boolean {
    try {
      parked.task = tasks.adopt(route.serverId, handle, { outputSchema: route.tool.outputSchema !== undefined });
      return true;
    } catch {
      return false;
    }
  }

  /** A 2025-11-25 server's sampling request, asked of the client as a one-request round. */
  async #relaySample(parked: Parked, config: ServerConfig, params: JsonObject, signal: AbortSignal): Promise<JsonObject> {
    if (!relayable(parked.round, 'sampling/createMessage', params))
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, 'The sampling request is too large to pass on');
    const key = 'sampling';
    const request = { method: 'sampling/createMessage', params } as InputRequest;
    const responses = await parked.ask({ [key]: request }, config.timeouts.elicitationSecs * 1000, signal);
    const answer = responses?.[key];
    if (!isObject(answer)) throw new ProtocolError(ProtocolErrorCode.InternalError, 'The client did not answer the sampling request');
    return answer;
  }

  #relayElicit(parked: Parked, config: ServerConfig): ElicitationHandler {
    return async (serverId, params, signal) => {
      const request = parseElicitParams(params);
      if (!request) return { action: 'decline' };
      const url = request.mode === 'url';
      const supported = url ? parked.round.elicitation.url : parked.round.elicitation.form;
      if (!supported || Buffer.byteLength(JSON.stringify(request), 'utf8') > 64 * 1024) return this.#deps.dialog(serverId, params, signal);
      return parked.elicit(request as unknown as JsonObject, config.timeouts.elicitationSecs * 1000, signal);
    };
  }

  async #policy(
    round: RoundContext,
    route: ToolRoute,
    config: ServerConfig,
    args: Record<string, unknown>,
    deadlineAt: number,
  ): Promise<CallError | undefined> {
    const policy = round.view.writes;
    if (policy === 'allow') return undefined;
    // The server's own readOnlyHint is never consulted here: a hostile server would call every tool read-only.
    if (this.#deps.trusted(round.client.id, route)) return undefined;
    if (policy === 'deny')
      return {
        code: 'denied',
        message: `This client may only use the tools allowed for it in Switchboard; ${route.localName} is not one of them (a server's read-only hint is not enough).`,
      };
    const whole = fullArgumentsText(args);
    const shown =
      whole.length > ASK_ARGUMENT_CHARS
        ? { text: `${whole.slice(0, ASK_ARGUMENT_CHARS)}…`, truncated: true }
        : { text: whole, truncated: false };
    const view: Omit<GatewayRequestView, 'requestId'> = {
      clientId: round.client.id,
      clientName: round.client.name,
      serverId: route.serverId,
      serverName: sanitizeText(config.name),
      tool: route.localName,
      ...(route.tool.title !== undefined ? { toolTitle: truncate(sanitizeText(route.tool.title), 200) } : {}),
      arguments: shown.text,
      argumentsTruncated: shown.truncated,
      argumentsChars: whole.length,
      argumentsBytes: argumentsBytes(args),
      argumentsHiddenBytes: shown.truncated ? Buffer.byteLength(whole.slice(ASK_ARGUMENT_CHARS), 'utf8') : 0,
      hints: {
        ...(route.tool.annotations?.readOnlyHint !== undefined ? { readOnly: route.tool.annotations.readOnlyHint } : {}),
        ...(route.tool.annotations?.destructiveHint !== undefined ? { destructive: route.tool.annotations.destructiveHint } : {}),
        ...(route.tool.annotations?.openWorldHint !== undefined ? { openWorld: route.tool.annotations.openWorldHint } : {}),
      },
      expiresAt: deadlineAt,
    };
    // Only the count and the first part stay with the ask; the whole text is rendered again if the person opens it.
    const outcome: AskOutcome = await this.#deps.asks.ask(view, round.signal, () => fullArgumentsText(args));
    if (outcome.allowed) {
      if (outcome.always) await this.#deps.trust(round.client.id, route);
      return undefined;
    }
    const messages: Record<typeof outcome.reason, string> = {
      denied: `The Switchboard user denied this call of ${route.localName}.`,
      timeout: `No one allowed this call of ${route.localName} in Switchboard before its deadline.`,
      cancelled: 'The call was cancelled while it waited for approval in Switchboard.',
      no_window: `This call of ${route.localName} needs approval in Switchboard, but no Switchboard window is open.`,
      queue_full: 'Too many calls are waiting for approval in Switchboard; try again later.',
    };
    return { code: outcome.reason === 'timeout' ? 'timeout' : 'denied', message: messages[outcome.reason] };
  }

  #finish(
    parked: Parked,
    route: ToolRoute,
    config: ServerConfig,
    outcome: CallOutcome,
    client: { id: string; name: string },
  ): CallToolResult {
    let raw: unknown;
    try {
      raw = this.#deps.calls.result(outcome.callId).result;
    } catch {
      raw = undefined;
    }
    // The launch gate, not the message text, says whether a refused launch lacks secrets.
    const refused = outcome.error?.code === 'approval_required' || outcome.error?.code === 'secret_missing';
    const missingSecrets = refused ? (this.#deps.missingSecrets?.(config) ?? []) : [];
    const result = toCallToolResult(outcome, raw, {
      serverName: sanitizeText(config.name),
      missingSecrets,
      outputSchema: route.tool.outputSchema !== undefined,
      structuredBudget: STRUCTURED_BYTES,
    });
    this.#deps.activity({
      clientId: client.id,
      clientName: client.name,
      kind: 'call',
      tool: route.localName,
      status: outcome.status,
      durationMs: outcome.durationMs,
      message:
        outcome.status === 'ok' ? `called ${route.localName}` : `called ${route.localName}: ${outcome.error?.message ?? outcome.status}`,
    });
    void parked;
    return result;
  }
}

/**
 * The whole arguments as text for the ask dialog: pretty JSON, or compact JSON when pretty would pass the bound (the
 * ingress check keeps compact JSON within it), sanitized; cut with a mark only if even that is over.
 */
function fullArgumentsText(args: Record<string, unknown>): string {
  let text: string;
  try {
    text = JSON.stringify(args, null, 2) ?? '{}';
    if (text.length > FULL_ARGUMENT_CHARS) text = JSON.stringify(args) ?? '{}';
  } catch {
    text = '(the arguments could not be shown)';
  }
  return truncate(sanitizeText(text), FULL_ARGUMENT_CHARS);
}

function argumentsBytes(args: Record<string, unknown>): number {
  try {
    return Buffer.byteLength(JSON.stringify(args) ?? '{}', 'utf8');
  } catch {
    return 0;
  }
}
