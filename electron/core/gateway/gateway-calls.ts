// A gateway client's tools/call: the same catalog route (pins: a changed tool is refused with the same reason),
// the same call service (concurrency, deadlines, presentation, history with the client's name) as a call from
// the UI. On top: the profile boundary, the write policy (allow / deny / ask, the wait bounded by the call's
// deadline; a server's annotations are hints for the person, never a permission: only the tools the person
// allowed for this client, each pinned to the definition they saw, skip the ask or pass a deny), progress and cancellation both ways, the server's log messages, and its elicitations, which go to
// the client as input_required rounds when it declared elicitation (the SDK turns those into elicitation/create
// requests on 2025-11-25 sessions) and to Switchboard's own dialog otherwise.
import { randomBytes } from 'node:crypto';
import type { CallToolResult, InputRequest } from '@modelcontextprotocol/server';
import type { ServerConfig } from '../../../shared/config.js';
import type { CallError, CallOrigin, CallOutcome, CallProgress } from '../../../shared/domains/calls.js';
import type { GatewayActivity, GatewayRequestView } from '../../../shared/domains/gateway.js';
import { AppError } from '../../../shared/errors.js';
import type { ElicitationAnswer, ElicitationHandler } from '../calls/call-runner.js';
import type { CallOptions, CallRelay } from '../calls/call-service.js';
import type { ToolRoute } from '../catalog/catalog-port.js';
import { parseElicitParams } from '../elicitation/elicit-params.js';
import { ARGUMENTS_MAX_BYTES } from '../ingress/arguments.js';
import { isObject, type JsonObject } from '../json.js';
import { sanitizeText, truncate } from '../text.js';
import type { AskBroker, AskOutcome } from './ask-broker.js';
import type { ProfileView } from './profile.js';
import { missingSecretsMessage, toCallToolResult, toolError } from './result-convert.js';
import type { GatewayCatalog, VisibleTools } from './tool-listing.js';

/** Bytes of structured content a gateway result may carry (the discovery output budget). */
export const STRUCTURED_BYTES = 256 * 1024;
/** Characters of arguments shown in an ask dialog; the rest is opened on demand (gateway.requestArguments). */
export const ASK_ARGUMENT_CHARS = 8 * 1024;
/** Characters of the whole arguments text: the ingress bound on arguments, so nothing a client may send is left out. */
export const FULL_ARGUMENT_CHARS = ARGUMENTS_MAX_BYTES;
/** Calls of one client that may wait for the client's input at once. */
export const MAX_PARKED_PER_CLIENT = 256;
const MAX_LOG_BYTES = 16 * 1024;

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
  requestState?: string;
  inputResponses?: Record<string, unknown>;
}

interface InputWait {
  key: string;
  request: InputRequest;
  answer: (a: ElicitationAnswer) => void;
}

/** A call in flight that may pause for the client's input between requests. */
class Parked {
  readonly token = randomBytes(18).toString('base64url');
  readonly clientId: string;
  readonly abort = new AbortController();
  done: Promise<CallToolResult> = Promise.resolve(toolError('not started'));
  finished = false;
  round: RoundContext;
  input: InputWait | undefined;
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

  /** Asks the client for input (one request at a time), until the elicitation timeout or the server withdraws it. */
  elicit(params: JsonObject, timeoutMs: number, signal: AbortSignal): Promise<ElicitationAnswer> {
    this.#rounds++;
    const key = `sb${this.#rounds}`;
    return new Promise<ElicitationAnswer>((resolve) => {
      const finish = (a: ElicitationAnswer): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        if (this.input?.key === key) this.input = undefined;
        resolve(a);
      };
      const timer = setTimeout(() => finish({ action: 'cancel' }), timeoutMs);
      const onAbort = (): void => finish({ action: 'cancel' });
      signal.addEventListener('abort', onAbort, { once: true });
      this.input = { key, request: { method: 'elicitation/create', params } as InputRequest, answer: finish };
      this.wake();
    });
  }
}

/** Runs gateway clients' tool calls. */
export class GatewayCalls {
  readonly #deps: GatewayCallDeps;
  readonly #parked = new Map<string, Parked>();

  constructor(deps: GatewayCallDeps) {
    this.#deps = deps;
  }

  /** Calls running for a client (including ones waiting for its input). */
  running(clientId: string): number {
    let n = 0;
    for (const p of this.#parked.values()) if (p.clientId === clientId && !p.finished) n++;
    return n;
  }

  /** Cancels a client's calls (removed) or every call (gateway off). */
  cancelAll(clientId?: string): void {
    for (const p of this.#parked.values()) if (clientId === undefined || p.clientId === clientId) p.abort.abort();
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
    this.#parked.set(parked.token, parked);
    const relay: CallRelay = {
      log: (params) => parked.log(params),
      ...(round.elicitation.form || round.elicitation.url ? { elicit: this.#relayElicit(parked, config) } : {}),
    };
    parked.done = this.#deps.calls
      .callRoute(route, args, {
        origin,
        signal: parked.abort.signal,
        onProgress: (p) => parked.progress(p),
        relay,
        deadlineAt,
      })
      .then((outcome) => this.#finish(parked, route, config, outcome, round.client))
      .catch((err: unknown) => toolError(err instanceof AppError ? err.message : 'The call failed unexpectedly.'))
      .finally(() => {
        parked.finished = true;
        parked.wake();
        setTimeout(() => this.#parked.delete(parked.token), 0);
      });
    return this.#await(parked, detach);
  }

  /** The next round of a call that asked the client for input. */
  async #resume(round: RoundContext): Promise<CallToolResult> {
    const parked = this.#parked.get(round.requestState ?? '');
    if (!parked || parked.clientId !== round.client.id || parked.finished)
      return toolError('This call is no longer waiting for input (it ended or timed out). Call the tool again.');
    const detach = parked.attach(round);
    const wait = parked.input;
    if (wait) {
      const response = round.inputResponses?.[wait.key];
      const answer: ElicitationAnswer =
        isObject(response) && (response.action === 'accept' || response.action === 'decline' || response.action === 'cancel')
          ? { action: response.action, ...(isObject(response.content) ? { content: response.content } : {}) }
          : { action: 'cancel' };
      wait.answer(answer);
    }
    return this.#await(parked, detach);
  }

  async #await(parked: Parked, detach: () => void): Promise<CallToolResult> {
    await parked.next();
    if (!parked.finished && parked.input) {
      detach();
      return {
        resultType: 'input_required',
        inputRequests: { [parked.input.key]: parked.input.request },
        requestState: parked.token,
      } as unknown as CallToolResult;
    }
    const result = await parked.done;
    await parked.flushed();
    return result;
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
