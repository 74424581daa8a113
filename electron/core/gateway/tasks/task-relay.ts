// The gateway's side of the tasks extension (io.modelcontextprotocol/tasks, SEP-2663, 2026-07-28 shape): a task an
// upstream server created for a gateway client's tools/call is handed to that client under a gateway-side id
// (random, never the server's), and its tasks/get, tasks/update and tasks/cancel are relayed to the server that
// runs it. A task belongs to the gateway client whose call created it: any other client, or a client whose profile
// no longer sees the server, gets the same "unknown task" as for an id that never existed (no oracle). What the
// server answers is rebuilt from its known fields (its ids, `_meta` related-task and error data never pass), and its
// input requests reach the client only as the MRTR relay lets them (the client declared the capability, the
// server's setting allows it, within the relay bounds); its answers are checked against what it was asked. A request
// the client cannot take goes where a normal gateway call's would: to the person's dialog when the server's setting
// allows it (the answer is passed on with tasks/update; meanwhile the client sees the task working), else the task is
// refused at once (cancelled upstream, failed here with the reason). A finished task's result gets the same bounds
// and conversion as a normal gateway call result (the presentation budget, the structured-content budget).
import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';
import { ProtocolError, ProtocolErrorCode, type InputRequest } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { ServerConfig } from '../../../../shared/config.js';
import type { CallOutcome } from '../../../../shared/domains/calls.js';
import { CONSENT_DENIED_MESSAGE, needsSettingMessage } from '../../../../shared/domains/protocol-text.js';
import { tasksMeta, type ElicitationHandler } from '../../calls/call-runner.js';
import { buildPresentation } from '../../calls/presentation.js';
import { isObject, type JsonObject } from '../../json.js';
import { sanitizeText, truncate } from '../../text.js';
import { asClientRequests, checkResponses, relayable, STRUCTURED_BYTES, type RoundContext } from '../gateway-calls.js';
import { toCallToolResult } from '../result-convert.js';

/** Tasks the gateway keeps per client, and in all; past either the oldest is forgotten (finished ones first). */
export const MAX_TASKS_PER_CLIENT = 256;
export const MAX_TASKS = 4096;
/** How long a task is kept when its server named no ttlMs (or null): an hour after it was last seen. */
export const DEFAULT_TASK_KEEP_MS = 60 * 60 * 1000;
/** Bound on one relayed tasks/* request to the server. */
export const TASK_REQUEST_MS = 30_000;

const STATUSES = new Set(['working', 'input_required', 'completed', 'failed', 'cancelled']);
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const Raw = z.looseObject({});

/** Switchboard's own answers to a server's input request (the person's dialogs, the shared roots). */
export interface TaskByHand {
  elicit: ElicitationHandler;
  /** Rejects when the person declined or did not answer. */
  sample(serverId: string, params: JsonObject, signal: AbortSignal): Promise<JsonObject>;
  listRoots(serverId: string): JsonObject;
  /** Whether the person refused questions from this server. */
  consentDenied(serverId: string): boolean;
}

/** What the relay needs from the host. */
export interface TaskRelayDeps {
  /** The connected client of a server (connects when needed). */
  client(serverId: string): Promise<Client>;
  config(serverId: string): ServerConfig;
  /** Who answers the input requests a client cannot take (absent: they are refused). */
  byHand?: TaskByHand;
}

/** What the gateway knows of the tool a task runs. */
export interface TaskTool {
  /** The tool declares an output schema (a result without usable structured content is then an error). */
  outputSchema: boolean;
}

/** Who asks: the gateway client, whether its profile still sees a server, and the input it declared. */
export interface TaskAsker {
  clientId: string;
  sees(serverId: string): boolean;
  input: Pick<RoundContext, 'elicitation' | 'sampling' | 'roots'>;
}

interface TaskRecord {
  id: string;
  clientId: string;
  serverId: string;
  upstreamId: string;
  keepUntil: number;
  terminal: boolean;
  /** The input requests last shown to the client (what tasks/update may answer), by the server's keys. */
  asked: Record<string, InputRequest>;
  /** The tool declares an output schema (as for a normal call's result). */
  outputSchema: boolean;
  /** Keys of input requests Switchboard is answering (the person's dialog is open, or the answer is on its way). */
  byHand: Set<string>;
  /** Aborts the open dialogs (the task was cancelled, refused or forgotten). */
  abort: AbortController;
  /** Set when the gateway refused the task (it is then failed here, whatever the server says). */
  refusal?: string;
}

/** The gateway's registry of relayed tasks, shared by every client endpoint. */
export class GatewayTaskRelay {
  readonly #deps: TaskRelayDeps;
  readonly #tasks = new Map<string, TaskRecord>();
  readonly #now: () => number;

  constructor(deps: TaskRelayDeps, now: () => number = Date.now) {
    this.#deps = deps;
    this.#now = now;
  }

  /** Tasks kept for a client (tests, diagnostics). */
  count(clientId: string): number {
    let n = 0;
    for (const t of this.#tasks.values()) if (t.clientId === clientId) n++;
    return n;
  }

  /**
   * Takes an upstream CreateTaskResult for a client: records it under a fresh gateway id and returns the flat
   * CreateTaskResult the client gets (`resultType: "task"`, no result, error or input requests).
   */
  adopt(clientId: string, serverId: string, handle: JsonObject, tool: TaskTool = { outputSchema: false }): JsonObject {
    const upstreamId = handle.taskId;
    if (typeof upstreamId !== 'string' || upstreamId.length === 0 || upstreamId.length > 1024)
      throw new ProtocolError(ProtocolErrorCode.InternalError, 'The server answered with a task that has no usable id');
    const view = taskFields(handle, '');
    this.#sweep();
    const record: TaskRecord = {
      id: randomBytes(18).toString('base64url'),
      clientId,
      serverId,
      upstreamId,
      keepUntil: this.#now() + keepMs(handle),
      terminal: false,
      asked: {},
      outputSchema: tool.outputSchema,
      byHand: new Set(),
      abort: new AbortController(),
    };
    record.terminal = TERMINAL.has(String(view.status));
    this.#admit(record);
    return { ...view, taskId: record.id, resultType: 'task' };
  }

  /** tasks/get: the task as its server reports it now, under the gateway id (result or error inlined once terminal). */
  async get(asker: TaskAsker, taskId: string): Promise<JsonObject> {
    const record = this.#find(asker, taskId);
    if (record.refusal !== undefined) return this.#refused(record);
    const raw = await this.#upstream(record, 'tasks/get', { taskId: record.upstreamId });
    if (raw.taskId !== undefined && raw.taskId !== record.upstreamId)
      throw new ProtocolError(ProtocolErrorCode.InternalError, 'The server answered tasks/get with another task');
    const view = taskFields(raw, record.id);
    record.keepUntil = Math.max(record.keepUntil, this.#now() + keepMs(raw));
    record.terminal = TERMINAL.has(String(view.status));
    if (record.terminal) record.abort.abort();
    if (view.status === 'completed' && isObject(raw.result)) view.result = this.#callResult(record, cleanResult(raw.result));
    if (view.status === 'failed') view.error = cleanError(raw.error);
    if (view.status === 'input_required') {
      const config = this.#deps.config(record.serverId);
      const requests = isObject(raw.inputRequests) ? raw.inputRequests : {};
      const shown: Record<string, unknown> = {};
      const local: [string, string, JsonObject][] = [];
      let refusal: string | undefined;
      for (const [key, request] of Object.entries(requests).slice(0, 64)) {
        if (!isObject(request) || typeof request.method !== 'string') continue;
        const params = isObject(request.params) ? request.params : {};
        const why = this.#refusal(config, record.serverId, request.method);
        if (why !== undefined) {
          refusal ??= why;
          continue;
        }
        if (relayable(asker.input, request.method, params)) shown[key] = request;
        else if (!record.byHand.has(key)) local.push([key, request.method, params]);
      }
      if (refusal !== undefined) return this.#refuse(record, refusal);
      for (const [key, method, params] of local) this.#answerByHand(record, key, method, params);
      record.asked = asClientRequests(shown);
      if (Object.keys(record.asked).length === 0 && record.byHand.size > 0) {
        // Nothing is the client's to answer: the task waits on the person, as a normal call would.
        view.status = 'working';
        view.statusMessage = 'Waiting for an answer in Switchboard';
      } else view.inputRequests = record.asked;
    } else record.asked = {};
    return { ...view, resultType: 'complete' };
  }

  /** tasks/update: the client's answers to the requests it was shown, checked, passed on; an empty ack. */
  async update(asker: TaskAsker, taskId: string, inputResponses: unknown): Promise<JsonObject> {
    const record = this.#find(asker, taskId);
    const given = isObject(inputResponses) ? inputResponses : undefined;
    const responses = checkResponses(record.asked, given);
    for (const key of Object.keys(responses)) delete record.asked[key];
    await this.#upstream(record, 'tasks/update', { taskId: record.upstreamId, inputResponses: responses });
    return { resultType: 'complete' };
  }

  /** tasks/cancel: passed on to the server (idempotent on a finished task); an empty ack. */
  async cancel(asker: TaskAsker, taskId: string): Promise<JsonObject> {
    const record = this.#find(asker, taskId);
    record.abort.abort();
    if (record.refusal !== undefined) return { resultType: 'complete' };
    await this.#upstream(record, 'tasks/cancel', { taskId: record.upstreamId });
    return { resultType: 'complete' };
  }

  /** Forgets a client's tasks (it was removed, or the gateway stops), cancelling those still running; never throws. */
  async forget(clientId?: string): Promise<void> {
    const gone = [...this.#tasks.values()].filter((t) => clientId === undefined || t.clientId === clientId);
    for (const t of gone) {
      this.#tasks.delete(t.id);
      t.abort.abort();
    }
    await Promise.all(
      gone.filter((t) => !t.terminal).map((t) => this.#upstream(t, 'tasks/cancel', { taskId: t.upstreamId }, 2_000).catch(() => undefined)),
    );
  }

  /** Why a server's input request cannot be answered at all (its setting, the person's refusal, the method), if so. */
  #refusal(config: ServerConfig, serverId: string, method: string): string | undefined {
    if (method === 'elicitation/create') {
      if (!config.elicitation) return needsSettingMessage('elicitation');
      if (this.#deps.byHand?.consentDenied(serverId) === true) return CONSENT_DENIED_MESSAGE;
      return undefined;
    }
    if (method === 'sampling/createMessage') return config.sampling === true ? undefined : needsSettingMessage('sampling');
    if (method === 'roots/list') return config.roots === true ? undefined : needsSettingMessage('roots');
    return `The task asked for ${truncate(sanitizeText(method), 80)}, which Switchboard does not support.`;
  }

  /** Refuses a task: it fails here with the reason, and its server is told to stop (best effort). */
  async #refuse(record: TaskRecord, reason: string): Promise<JsonObject> {
    record.refusal = `${reason} The task was cancelled.`;
    record.terminal = true;
    record.asked = {};
    record.abort.abort();
    await this.#upstream(record, 'tasks/cancel', { taskId: record.upstreamId }, 2_000).catch(() => undefined);
    return this.#refused(record);
  }

  #refused(record: TaskRecord): JsonObject {
    const now = new Date().toISOString();
    return {
      taskId: record.id,
      status: 'failed',
      statusMessage: truncate(record.refusal ?? 'Refused', 500),
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: null,
      error: { code: ProtocolErrorCode.InternalError, message: record.refusal ?? 'Refused' },
      resultType: 'complete',
    };
  }

  /**
   * Answers one input request the client cannot take in Switchboard (the person's dialog, or the shared roots) and
   * passes the answer on with tasks/update; a declined or unanswered sampling refuses the task. Never throws.
   */
  #answerByHand(record: TaskRecord, key: string, method: string, params: JsonObject): void {
    const byHand = this.#deps.byHand;
    if (byHand === undefined) {
      void this.#refuse(record, 'The task asked for input this client cannot give, and Switchboard has no dialog to ask in.');
      return;
    }
    record.byHand.add(key);
    const signal = record.abort.signal;
    void (async () => {
      let answer: JsonObject;
      try {
        if (method === 'elicitation/create') answer = { ...(await byHand.elicit(record.serverId, params, signal)) };
        else if (method === 'sampling/createMessage') answer = await byHand.sample(record.serverId, params, signal);
        else answer = byHand.listRoots(record.serverId);
      } catch (err) {
        if (signal.aborted) return;
        const why =
          err instanceof Error && err.message ? ` (${truncate(sanitizeText(err.message.replace(/^MCP error -?\d+: /, '')), 300)})` : '';
        await this.#refuse(record, `The sampling request was declined or not answered in time${why}.`);
        return;
      }
      if (signal.aborted) return;
      await this.#upstream(record, 'tasks/update', { taskId: record.upstreamId, inputResponses: { [key]: answer } }).catch(() => undefined);
    })().finally(() => record.byHand.delete(key));
  }

  /** A finished task's tool result, bounded and converted as a normal gateway call result is. */
  #callResult(record: TaskRecord, result: JsonObject): JsonObject {
    const config = this.#deps.config(record.serverId);
    const presentation = buildPresentation(result, config.limits);
    const failed = result.isError === true;
    const outcome: CallOutcome = {
      callId: record.id,
      status: failed ? 'error' : 'ok',
      presentation,
      durationMs: 0,
      ...(failed ? { error: { code: 'tool_error', message: presentation.text.slice(0, 300) || 'The tool reported an error' } } : {}),
    };
    return toCallToolResult(outcome, result, {
      serverName: sanitizeText(config.name),
      outputSchema: record.outputSchema,
      structuredBudget: STRUCTURED_BYTES,
      inHistory: false,
    }) as JsonObject;
  }

  #find(asker: TaskAsker, taskId: string): TaskRecord {
    this.#sweep();
    const record = this.#tasks.get(taskId);
    if (!record || record.clientId !== asker.clientId || !asker.sees(record.serverId))
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown task: ${truncate(sanitizeText(taskId), 100)}`);
    return record;
  }

  async #upstream(record: TaskRecord, method: string, params: JsonObject, timeout = TASK_REQUEST_MS): Promise<JsonObject> {
    let client: Client;
    try {
      client = await this.#deps.client(record.serverId);
    } catch {
      throw new ProtocolError(ProtocolErrorCode.InternalError, 'The server that runs this task is not connected');
    }
    try {
      return (await client.request({ method, params: { ...params, _meta: tasksMeta(client) } } as never, Raw, { timeout })) as JsonObject;
    } catch (err) {
      const code = isObject(err) && typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : undefined;
      // The server forgot the task (expired, restarted): it is unknown here too.
      if (code === ProtocolErrorCode.InvalidParams) {
        this.#tasks.delete(record.id);
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Unknown task: its server no longer has it');
      }
      const message = err instanceof Error ? truncate(sanitizeText(err.message), 300) : 'no reason given';
      throw new ProtocolError(ProtocolErrorCode.InternalError, `The server could not answer ${method}: ${message}`);
    }
  }

  #admit(record: TaskRecord): void {
    const mine = [...this.#tasks.values()].filter((t) => t.clientId === record.clientId);
    if (mine.length >= MAX_TASKS_PER_CLIENT) this.#evict(mine);
    if (this.#tasks.size >= MAX_TASKS) this.#evict([...this.#tasks.values()]);
    this.#tasks.set(record.id, record);
  }

  /** Forgets the oldest finished task of `among`, or the oldest one when none has finished. */
  #evict(among: TaskRecord[]): void {
    const victim = among.find((t) => t.terminal) ?? among[0];
    if (victim) this.#tasks.delete(victim.id);
  }

  #sweep(): void {
    const now = this.#now();
    for (const t of [...this.#tasks.values()]) if (t.keepUntil < now) this.#tasks.delete(t.id);
  }
}

/** How long to keep a task: its ttlMs (a positive integer), else an hour. */
function keepMs(raw: JsonObject): number {
  const ttl = raw.ttlMs;
  return typeof ttl === 'number' && Number.isInteger(ttl) && ttl > 0 ? Math.min(ttl, 7 * 24 * 3600 * 1000) : DEFAULT_TASK_KEEP_MS;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/;

/** The task base fields of a server's answer under the gateway id, each checked; nothing else passes. */
function taskFields(raw: JsonObject, id: string): JsonObject {
  const status = typeof raw.status === 'string' && STATUSES.has(raw.status) ? raw.status : undefined;
  if (status === undefined) throw new ProtocolError(ProtocolErrorCode.InternalError, 'The server answered with a task in no known status');
  const now = new Date().toISOString();
  const stamp = (v: unknown): string => (typeof v === 'string' && ISO.test(v) && v.length <= 40 ? v : now);
  const ttl = raw.ttlMs;
  const poll = raw.pollIntervalMs;
  return {
    taskId: id,
    status,
    ...(typeof raw.statusMessage === 'string' ? { statusMessage: truncate(sanitizeText(raw.statusMessage), 500) } : {}),
    createdAt: stamp(raw.createdAt),
    lastUpdatedAt: stamp(raw.lastUpdatedAt),
    ttlMs: typeof ttl === 'number' && Number.isInteger(ttl) && ttl > 0 ? ttl : null,
    ...(typeof poll === 'number' && Number.isInteger(poll) && poll > 0 ? { pollIntervalMs: poll } : {}),
  };
}

/** A finished task's tool result without its server's task bookkeeping (related-task `_meta`, its resultType). */
function cleanResult(result: JsonObject): JsonObject {
  const { resultType: _type, _meta, ...rest } = result;
  if (!isObject(_meta)) return rest;
  const { 'io.modelcontextprotocol/related-task': _related, ...meta } = _meta;
  return Object.keys(meta).length > 0 ? { ...rest, _meta: meta } : rest;
}

/** A failed task's error: its code and a cleaned message (its data may carry the server's ids). */
function cleanError(error: unknown): JsonObject {
  const e = isObject(error) ? error : {};
  return {
    code: typeof e.code === 'number' && Number.isInteger(e.code) ? e.code : ProtocolErrorCode.InternalError,
    message: typeof e.message === 'string' ? truncate(sanitizeText(e.message), 2000) : 'The task failed',
  };
}
