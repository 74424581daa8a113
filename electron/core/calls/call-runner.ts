// Runs one logical `tools/call` on a connected SDK client (seed 000 "Invocation" and "Tasks Extension"):
// progress, cancellation through the caller's signal (the SDK sends notifications/cancelled), a per-request
// timeout on every leg, MRTR `input_required` rounds handled by hand (requestState echoed, elicitation sent to
// the handler when opted in, sampling/roots refused before any prompt opens) and task handles polled with
// tasks/get until terminal, bounded by the task's own max wait. On a 2026-07-28 session the SDK client rejects
// a `resultType: "task"` answer, so there the initiating tools/call goes through raw-request.ts instead.
import { setTimeout as sleep } from 'node:timers/promises';
import { SdkError, SdkErrorCode, type Client, type StandardSchemaV1Sync } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/config.js';
import type { CallError, CallProgress } from '../../../shared/domains/calls.js';
import { AppError, type ErrorCode } from '../../../shared/errors.js';
import { sanitizeText, truncate } from '../text.js';
import { outboundEnvelope, rawRequest } from './raw-request.js';
import { isObject, type JsonObject } from '../json.js';
import { CONSENT_DENIED_MESSAGE, needsSettingMessage } from '../../../shared/domains/protocol-text.js';
import { taskParams, useLegacyTaskForm, type TaskSupport } from './legacy-tasks.js';
import type { RoundRelay } from './call-service.js';

/** What an elicitation round is answered with. */
export interface ElicitationAnswer {
  action: 'accept' | 'decline' | 'cancel';
  // The SDK types its elicit result with zod, whose optional fields may be undefined.
  content?: Record<string, unknown> | undefined;
}

/** Answers an elicitation request embedded in an MRTR round (the elicitation broker implements it). */
export type ElicitationHandler = (serverId: string, params: JsonObject, signal: AbortSignal) => Promise<ElicitationAnswer>;

/** The extension id of the tasks extension (SEP-2663). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** Where per-request client capabilities go in `_meta`. */
export const CLIENT_CAPABILITIES_META = 'io.modelcontextprotocol/clientCapabilities';
/** Where a 2026-07-28 request names the log level it wants the server's log messages at. */
export const LOG_LEVEL_META = 'io.modelcontextprotocol/logLevel';
/** Poll interval clamp for tasks/get. */
export const TASK_POLL_MIN_MS = 250;
export const TASK_POLL_MAX_MS = 10_000;
/** Bound on a tasks/cancel acknowledgement. */
export const TASK_CANCEL_MS = 2_000;
/** MRTR rounds before giving up. */
export const MAX_INPUT_ROUNDS = 10;

/** Everything one run needs. */
export interface RunOptions {
  client: Client;
  serverId: string;
  originalName: string;
  args: JsonObject;
  config: Pick<ServerConfig, 'timeouts' | 'tasks' | 'elicitation'> & Partial<Pick<ServerConfig, 'sampling' | 'roots'>>;
  /** The tool's declared task support (2025-11-25 `execution.taskSupport`); absent means none. */
  taskSupport?: TaskSupport;
  /** Whether the person refused questions from this server (elicitation consent "deny"). */
  consentDenied?: boolean;
  /** Answers a sampling request by hand (MRTR rounds), when sampling is on. */
  sample?: (serverId: string, params: JsonObject, signal: AbortSignal) => Promise<JsonObject>;
  /** The roots shared with the server (MRTR rounds), when roots are on. */
  listRoots?: (serverId: string) => JsonObject;
  /** Aborted on user cancel or on the logical deadline. */
  signal: AbortSignal;
  onProgress: (p: Omit<CallProgress, 'callId'>) => void;
  elicit?: ElicitationHandler;
  /** inputResponses to send with the first request (the caller answered before being asked). */
  firstResponses?: JsonObject;
  /** The log level to ask a 2026-07-28 server for during the call (someone receives its log messages). */
  logLevel?: string;
  /** Runs an MRTR round's wait for answers with the call's concurrency slot given back, taken again after. */
  whileWaiting?: <T>(wait: () => Promise<T>) => Promise<T>;
  /** Who answers the requests of an MRTR round it takes, instead of Switchboard (a gateway client's call). */
  relayRound?: RoundRelay;
  /** Takes a 2026-07-28 task handle instead of Switchboard following it (true: taken; the call ends with the handle). */
  takeTask?: (handle: JsonObject) => boolean;
  /**
   * Calls without the tasks extension (the caller could have declared it and did not); told when the server refuses
   * because the tool runs only as a task (-32021 naming the extension), the call then ends in a host error.
   */
  tasksRefused?: () => void;
  /** Time source (tests). */
  now?: () => number;
}

/** How a run ended without throwing. */
export interface RunResult {
  /** The raw result (or a synthesized tool-level error result). */
  result: JsonObject;
  /** Set when the run ended in a tool-level error produced by the host (not the server). */
  hostError?: CallError;
  /** Set when a task ended as cancelled on the server side. */
  taskCancelled?: boolean;
}

/**
 * Any JSON object, passed on as the server sent it: a zod looseObject would copy every member of every result into a
 * new object (and run zod) on each call, for a result that is only read.
 */
const Raw: StandardSchemaV1Sync<unknown, JsonObject> = {
  '~standard': {
    version: 1,
    vendor: 'switchboard',
    validate: (value) => (isObject(value) ? { value } : { issues: [{ message: 'Invalid input: expected object' }] }),
  },
};

/** A synthesized tool-level error result. */
export function toolErrorResult(text: string): JsonObject {
  return { content: [{ type: 'text', text }], isError: true };
}

function hostError(code: ErrorCode, message: string): RunResult {
  return { result: toolErrorResult(message), hostError: { code, message } };
}

/** A task handle in either the SEP-2663 shape or the 2025-11-25 `{ task: {...} }` shape. */
interface TaskView {
  taskId: string;
  status: string;
  statusMessage?: string;
  pollIntervalMs?: number;
  result?: JsonObject;
  error?: { code?: number; message?: string };
  inputRequests?: JsonObject;
  v1: boolean;
}

/** Reads a task handle from a result, or undefined when the result is not one. */
export function readTask(raw: JsonObject): TaskView | undefined {
  const v1 = isObject(raw.task) && !('content' in raw && Array.isArray(raw.content) && raw.content.length > 0);
  const t = v1 ? (raw.task as JsonObject) : raw;
  if (typeof t.taskId !== 'string' || typeof t.status !== 'string') return undefined;
  if (!v1 && raw.resultType !== undefined && raw.resultType !== 'task' && raw.resultType !== 'complete') return undefined;
  const interval =
    typeof t.pollIntervalMs === 'number' ? t.pollIntervalMs : typeof t.pollInterval === 'number' ? t.pollInterval : undefined;
  return {
    taskId: t.taskId,
    status: t.status,
    v1,
    ...(typeof t.statusMessage === 'string' ? { statusMessage: sanitizeText(t.statusMessage).slice(0, 500) } : {}),
    ...(interval !== undefined ? { pollIntervalMs: interval } : {}),
    ...(isObject(t.result) ? { result: t.result } : {}),
    ...(isObject(t.error) ? { error: t.error as NonNullable<TaskView['error']> } : {}),
    ...(isObject(t.inputRequests) ? { inputRequests: t.inputRequests } : {}),
  };
}

/** The poll interval actually used: the server's suggestion clamped to 250 ms–10 s (1 s when none). */
export function pollInterval(suggested: number | undefined): number {
  if (suggested === undefined || !Number.isFinite(suggested)) return 1000;
  return Math.min(TASK_POLL_MAX_MS, Math.max(TASK_POLL_MIN_MS, suggested));
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

const METHOD_NAMES: Record<string, string> = {
  'sampling/createMessage': 'sampling (sampling/createMessage)',
  'roots/list': 'roots (roots/list)',
  'elicitation/create': 'elicitation (elicitation/create)',
};

/** Runs the call; throws SDK errors, or the signal's reason when aborted. */
export async function runToolCall(opts: RunOptions): Promise<RunResult> {
  const config = opts.tasksRefused ? { ...opts.config, tasks: false } : opts.config;
  const requestMs = config.timeouts.requestSecs * 1000;
  const modernTasks = config.tasks && opts.client.getProtocolEra() === 'modern';
  const support = opts.taskSupport ?? 'forbidden';
  // A tool that only runs as a task cannot run without tasks: say which setting turns them on.
  if (support === 'required' && !config.tasks) return hostError('tasks_not_enabled', needsSettingMessage('tasks'));
  const legacyTask = useLegacyTaskForm(opts.client, support, config.tasks);
  const baseMeta: JsonObject = !config.tasks
    ? {}
    : modernTasks
      ? tasksMeta(opts.client)
      : { [CLIENT_CAPABILITIES_META]: { extensions: { [TASKS_EXTENSION]: {} } } };
  // 2026-07-28 has no logging/setLevel: a server logs during a request only when the request names a level.
  if (opts.logLevel !== undefined && opts.client.getProtocolEra() === 'modern') baseMeta[LOG_LEVEL_META] = opts.logLevel;
  // Answers the caller sent with its first request (a stateless server's keys), for a 2026-07-28 server only and
  // never past the person's refusal of questions from it.
  const first = opts.firstResponses && !opts.consentDenied && opts.client.getProtocolEra() === 'modern' ? opts.firstResponses : undefined;
  let extra: JsonObject = first ? { inputResponses: first } : {};
  opts.onProgress({ phase: 'running' });

  for (let round = 0; ; round++) {
    const params: JsonObject = {
      name: opts.originalName,
      arguments: opts.args,
      ...(legacyTask ? taskParams(config.timeouts.taskMaxWaitSecs) : {}),
      ...extra,
    };
    if (Object.keys(baseMeta).length > 0) params._meta = baseMeta;
    let raw: JsonObject;
    try {
      raw = modernTasks ? await rawCallLeg(opts, params, requestMs) : await callLeg(opts, params, requestMs);
    } catch (err) {
      const missing = missingCapabilities(err);
      if (opts.tasksRefused && missing?.includes('extensions') && requiresTasks(err)) {
        opts.tasksRefused();
        return hostError('input_unsupported', 'The tool runs only as a task, and the caller did not declare the tasks extension.');
      }
      if (missing && missing.every((m) => m === 'elicitation')) {
        if (!opts.config.elicitation) return hostError('elicitation_not_enabled', ELICITATION_OFF);
        return hostError('elicitation_unavailable', 'The tool asked for user input (elicitation), but this connection cannot answer it.');
      }
      if (missing) {
        const off = missing.find((m): m is 'sampling' | 'roots' => (m === 'sampling' || m === 'roots') && opts.config[m] !== true);
        if (off) return hostError(`${off}_not_enabled`, needsSettingMessage(off));
        const names = missing.map((m) => CAPABILITY_NAMES[m] ?? sanitizeText(m).slice(0, 80)).join(', ');
        return hostError(
          'input_unsupported',
          `The tool needs the client to provide ${names}, which Switchboard does not support on this connection. The call was stopped.`,
        );
      }
      throw err;
    }

    if (raw.resultType === 'input_required') {
      if (round + 1 >= MAX_INPUT_ROUNDS)
        return hostError('input_rounds_exceeded', `The server asked for input more than ${MAX_INPUT_ROUNDS} times; the call was stopped.`);
      // While the round waits for answers the server holds no request of this call: its concurrency slot is
      // given back meanwhile (a round left unanswered must not hold a serial server for the input timeout).
      const waits = isObject(raw.inputRequests) && Object.keys(raw.inputRequests).length > 0;
      const next = waits && opts.whileWaiting ? await opts.whileWaiting(() => answerRound(opts, raw)) : await answerRound(opts, raw);
      if ('result' in next) return next;
      extra = next.params;
      continue;
    }

    const task = config.tasks || legacyTask ? readTask(raw) : undefined;
    if (task && modernTasks && !task.v1 && opts.takeTask?.(raw) === true) return { result: raw };
    if (task) return await followTask(opts, task, modernTasks ? baseMeta : undefined, legacyTask);
    return { result: raw };
  }
}

const ELICITATION_OFF = needsSettingMessage('elicitation');

const CAPABILITY_NAMES: Record<string, string> = {
  sampling: 'sampling (sampling/createMessage)',
  roots: 'roots (roots/list)',
  elicitation: 'elicitation (user input)',
};

/** The capabilities a -32021 "missing required client capability" error names, if that is what it is. */
function missingCapabilities(err: unknown): string[] | undefined {
  if (!isObject(err) || (err as { code?: unknown }).code !== -32021) return undefined;
  const data = (err as { data?: unknown }).data;
  const req = isObject(data) && isObject(data.requiredCapabilities) ? Object.keys(data.requiredCapabilities) : [];
  return req.length > 0 ? req : ['a capability it did not name'];
}

/** Whether a -32021 error names the tasks extension among the capabilities it requires. */
function requiresTasks(err: unknown): boolean {
  const data = (err as { data?: unknown }).data;
  const required = isObject(data) && isObject(data.requiredCapabilities) ? data.requiredCapabilities : {};
  return isObject(required.extensions) && required.extensions[TASKS_EXTENSION] !== undefined;
}

function progressOf(opts: RunOptions): (p: { progress: number; total?: number | undefined; message?: string | undefined }) => void {
  return (p) =>
    opts.onProgress({
      phase: 'running',
      progress: p.progress,
      ...(p.total !== undefined ? { total: p.total } : {}),
      ...(typeof p.message === 'string' ? { message: sanitizeText(p.message).slice(0, 500) } : {}),
    });
}

async function callLeg(opts: RunOptions, params: JsonObject, requestMs: number): Promise<JsonObject> {
  return (await opts.client.request({ method: 'tools/call', params }, Raw, {
    signal: opts.signal,
    timeout: requestMs,
    allowInputRequired: true,
    onprogress: progressOf(opts),
  })) as JsonObject;
}

/**
 * The per-request `_meta` of a 2026-07-28 session that opts into the tasks extension: the client's own
 * capabilities (as the SDK sends them) plus the extension. The key replaces the SDK's, so it must be the union.
 */
export function tasksMeta(client: Client): JsonObject {
  const envelope = outboundEnvelope(client);
  const caps = isObject(envelope[CLIENT_CAPABILITIES_META]) ? envelope[CLIENT_CAPABILITIES_META] : {};
  const extensions = isObject(caps.extensions) ? caps.extensions : {};
  return { [CLIENT_CAPABILITIES_META]: { ...caps, extensions: { ...extensions, [TASKS_EXTENSION]: {} } } };
}

/**
 * The tools/call leg of a 2026-07-28 session with tasks opted in: sent raw (the SDK would reject a task
 * handle) and decoded here the way the SDK decodes it, plus `resultType: "task"`.
 */
async function rawCallLeg(opts: RunOptions, params: JsonObject, requestMs: number): Promise<JsonObject> {
  const raw = await rawRequest(opts.client, 'tools/call', params, {
    signal: opts.signal,
    timeout: requestMs,
    onprogress: progressOf(opts),
  });
  const kind = raw.resultType;
  if (kind === 'task' || kind === 'input_required') return raw;
  if (kind === 'complete') {
    const { resultType: _ignored, ...result } = raw;
    return result;
  }
  throw new SdkError(
    kind === undefined ? SdkErrorCode.InvalidResult : SdkErrorCode.UnsupportedResultType,
    kind === undefined
      ? 'Invalid result for tools/call: missing required resultType'
      : `Unsupported result type '${sanitizeText(String(kind)).slice(0, 80)}' for tools/call`,
  );
}

/**
 * Answers one MRTR round: checks every request first (the server's settings decide what may be answered at all),
 * then passes the requests the relay takes to the caller, keys and requests unchanged, and answers the rest here
 * (questions and sampling by the person, roots from the shared folders), both at once. The round's requestState
 * is echoed exactly as the server sent it.
 */
async function answerRound(opts: RunOptions, raw: JsonObject): Promise<RunResult | { params: JsonObject }> {
  const requests = isObject(raw.inputRequests) ? raw.inputRequests : {};
  const entries = Object.entries(requests);
  const methodOf = (r: unknown): string => (isObject(r) && typeof r.method === 'string' ? r.method : '(unknown)');
  const paramsOf = (r: unknown): JsonObject => (isObject(r) && isObject(r.params) ? r.params : {});
  const relay = opts.relayRound;
  const relayed = new Set(entries.filter(([, r]) => relay?.takes(methodOf(r), paramsOf(r)) === true).map(([k]) => k));
  const answerable = (m: string, key: string): boolean =>
    m === 'elicitation/create' ||
    (m === 'sampling/createMessage' && opts.config.sampling === true && (opts.sample !== undefined || relayed.has(key))) ||
    (m === 'roots/list' && opts.config.roots === true && (opts.listRoots !== undefined || relayed.has(key)));
  // Unsupported methods are detected before any prompt opens.
  const unsupported = [...new Set(entries.filter(([k, r]) => !answerable(methodOf(r), k)).map(([, r]) => methodOf(r)))];
  if (unsupported.length > 0) {
    const off =
      unsupported.includes('sampling/createMessage') && opts.config.sampling !== true
        ? 'sampling'
        : unsupported.includes('roots/list') && opts.config.roots !== true
          ? 'roots'
          : undefined;
    if (off) return hostError(`${off}_not_enabled`, needsSettingMessage(off));
    const names = unsupported.map((m) => METHOD_NAMES[m] ?? sanitizeText(m).slice(0, 80)).join(', ');
    return hostError(
      'input_unsupported',
      `The tool asked the client for ${names}, which Switchboard does not support. The call was stopped.`,
    );
  }
  if (entries.some(([, r]) => methodOf(r) === 'elicitation/create')) {
    if (!opts.config.elicitation) return hostError('elicitation_not_enabled', ELICITATION_OFF);
    if (opts.consentDenied) return hostError('elicitation_refused', CONSENT_DENIED_MESSAGE);
    if (!opts.elicit && entries.some(([k, r]) => methodOf(r) === 'elicitation/create' && !relayed.has(k)))
      return hostError('elicitation_unavailable', 'The tool asked for user input (elicitation), but no input dialog is available.');
  }
  const responses: JsonObject = {};
  if (entries.length > 0) {
    opts.onProgress({ phase: 'input' });
    // The caller's wait ends with the round: when the local part fails, the relayed part is withdrawn.
    const roundAbort = new AbortController();
    const onAbort = (): void => roundAbort.abort(opts.signal.reason);
    opts.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const toRelay = entries.filter(([k]) => relayed.has(k));
      const relayedPart =
        relay && toRelay.length > 0
          ? relay.answer(Object.fromEntries(toRelay) as Record<string, JsonObject>, roundAbort.signal)
          : Promise.resolve<Record<string, unknown>>({});
      const localPart = answerLocally(
        opts,
        entries.filter(([k]) => !relayed.has(k)),
        responses,
      ).then((failed) => {
        if (failed) roundAbort.abort();
        return failed;
      });
      const [answered, failed] = await Promise.all([relayedPart, localPart]);
      if (failed) return failed;
      if (opts.signal.aborted) throw opts.signal.reason;
      if (answered === undefined)
        return hostError('timeout', 'The client that made the call did not answer the server’s request for input; the call was stopped.');
      for (const [k] of toRelay) if (k in answered) responses[k] = answered[k] as JsonObject;
    } finally {
      opts.signal.removeEventListener('abort', onAbort);
    }
    opts.onProgress({ phase: 'running' });
  }
  return {
    params: {
      ...(entries.length > 0 ? { inputResponses: responses } : {}),
      ...(typeof raw.requestState === 'string' ? { requestState: raw.requestState } : {}),
    },
  };
}

/** Answers the requests of a round Switchboard itself answers, into `responses`; a failure ends the call. */
async function answerLocally(opts: RunOptions, entries: [string, unknown][], responses: JsonObject): Promise<RunResult | undefined> {
  for (const [key, request] of entries) {
    const params = isObject(request) && isObject(request.params) ? request.params : {};
    const method = isObject(request) && typeof request.method === 'string' ? request.method : '';
    if (method === 'roots/list' && opts.listRoots) responses[key] = opts.listRoots(opts.serverId);
    else if (method === 'sampling/createMessage' && opts.sample) {
      try {
        responses[key] = await opts.sample(opts.serverId, params, opts.signal);
      } catch (err) {
        if (opts.signal.aborted) throw err;
        // Why (declined, timed out, no window open); sanitized, as a relayed answer may come from elsewhere.
        const why =
          err instanceof Error && err.message ? ` (${truncate(sanitizeText(err.message.replace(/^MCP error -?\d+: /, '')), 300)})` : '';
        return hostError('sampling_declined', `The sampling request was declined or not answered in time${why}; the call was stopped.`);
      }
    } else if (opts.elicit) responses[key] = await opts.elicit(opts.serverId, params, opts.signal);
  }
  return undefined;
}

/** Polls a task until terminal, bounded by the task max wait; walks away by cancelling it. */
async function followTask(opts: RunOptions, first: TaskView, meta: JsonObject | undefined, legacyForm: boolean): Promise<RunResult> {
  const { client, signal } = opts;
  const now = opts.now ?? Date.now;
  const maxWaitMs = opts.config.timeouts.taskMaxWaitSecs * 1000;
  const requestMs = opts.config.timeouts.requestSecs * 1000;
  const deadline = now() + maxWaitMs;
  const wait = new AbortController();
  const timer = setTimeout(
    () =>
      wait.abort(new AppError('timeout', `The task did not finish within ${opts.config.timeouts.taskMaxWaitSecs} s and was cancelled.`)),
    maxWaitMs,
  );
  const onAbort = (): void => wait.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  let task = first;
  const report = (): void =>
    opts.onProgress({
      phase: 'task',
      task: { id: task.taskId, status: task.status, ...(task.statusMessage ? { message: task.statusMessage } : {}) },
    });
  try {
    for (;;) {
      report();
      if (task.status === 'completed') {
        if (task.result) {
          const { resultType: _ignored, ...result } = task.result;
          return { result: meta ? result : task.result };
        }
        // 2025-11-25 shape: the payload is fetched separately.
        const payload = (await client.request({ method: 'tasks/result', params: { taskId: task.taskId } }, Raw, {
          signal: wait.signal,
          timeout: Math.max(1, Math.min(requestMs, deadline - now())),
        })) as JsonObject;
        return { result: payload };
      }
      if (task.status === 'failed') {
        const msg = task.error?.message ? sanitizeText(task.error.message).slice(0, 2000) : (task.statusMessage ?? 'no reason given');
        return hostError('task_failed', `The task failed: ${msg}`);
      }
      if (task.status === 'cancelled')
        return { ...hostError('task_cancelled', 'The task was cancelled by the server.'), taskCancelled: true };
      if (task.status === 'input_required' && legacyForm) {
        // 2025-11-25: the server delivers its questions while tasks/result is open, then answers with the result;
        // the questions reach the ordinary elicitation handler of this connection.
        opts.onProgress({
          phase: 'input',
          task: { id: task.taskId, status: task.status, ...(task.statusMessage ? { message: task.statusMessage } : {}) },
        });
        const payload = (await client.request({ method: 'tasks/result', params: { taskId: task.taskId } }, Raw, {
          signal: wait.signal,
          timeout: Math.max(1, deadline - now()),
        })) as JsonObject;
        return { result: payload };
      }
      if (task.status === 'input_required') {
        await cancelTask(client, task.taskId, meta);
        return hostError(
          'task_input_unsupported',
          'The task asked for input, which Switchboard cannot answer inside a task; the task was cancelled.',
        );
      }
      // An aborted wait rejects with the abort's own reason (deadline or user cancel), as the requests do.
      await sleep(pollInterval(task.pollIntervalMs), undefined, { signal: wait.signal }).catch((err: unknown) => {
        throw wait.signal.aborted ? (wait.signal.reason as unknown) : err;
      });
      const raw = (await client.request({ method: 'tasks/get', params: { taskId: task.taskId, ...(meta ? { _meta: meta } : {}) } }, Raw, {
        signal: wait.signal,
        timeout: Math.max(1, Math.min(requestMs, deadline - now())),
      })) as JsonObject;
      const next = readTask(isObject(raw.task) ? raw : { ...raw, resultType: 'task' });
      if (!next || next.taskId !== task.taskId) throw new AppError('server_error', 'tasks/get returned something that is not the task');
      task = next;
    }
  } catch (err) {
    if (!TERMINAL.has(task.status)) await cancelTask(client, task.taskId, meta);
    if (wait.signal.aborted && !signal.aborted) throw wait.signal.reason;
    throw err;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}

/** Best-effort tasks/cancel, bounded to two seconds; never throws. `meta` is the 2026-07-28 tasks `_meta`. */
export async function cancelTask(client: Client, taskId: string, meta?: JsonObject): Promise<boolean> {
  try {
    await client.request({ method: 'tasks/cancel', params: { taskId, ...(meta ? { _meta: meta } : {}) } }, Raw, {
      timeout: TASK_CANCEL_MS,
    });
    return true;
  } catch {
    return false;
  }
}
