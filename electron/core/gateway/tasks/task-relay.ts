// The gateway's side of the tasks extension (io.modelcontextprotocol/tasks, SEP-2663, 2026-07-28 shape): a task an
// upstream server created for a gateway client's tools/call is handed to that client under a gateway-side id
// (random, never the server's), and its tasks/get, tasks/update and tasks/cancel are relayed to the server that
// runs it. A task belongs to the gateway client whose call created it: any other client, or a client whose profile
// no longer sees the server, gets the same "unknown task" as for an id that never existed (no oracle). What the
// server answers is rebuilt from its known fields (its ids, `_meta` related-task and error data never pass), and its
// input requests reach the client only as the MRTR relay lets them (the client declared the capability, the
// server's setting allows it, within the relay bounds); its answers are checked against what it was asked.
import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';
import { ProtocolError, ProtocolErrorCode, type InputRequest } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { ServerConfig } from '../../../../shared/config.js';
import { tasksMeta } from '../../calls/call-runner.js';
import { isObject, type JsonObject } from '../../json.js';
import { sanitizeText, truncate } from '../../text.js';
import { asClientRequests, checkResponses, relayable, type RoundContext } from '../gateway-calls.js';

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

/** What the relay needs from the host. */
export interface TaskRelayDeps {
  /** The connected client of a server (connects when needed). */
  client(serverId: string): Promise<Client>;
  config(serverId: string): ServerConfig;
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
  adopt(clientId: string, serverId: string, handle: JsonObject): JsonObject {
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
    };
    record.terminal = TERMINAL.has(String(view.status));
    this.#admit(record);
    return { ...view, taskId: record.id, resultType: 'task' };
  }

  /** tasks/get: the task as its server reports it now, under the gateway id (result or error inlined once terminal). */
  async get(asker: TaskAsker, taskId: string): Promise<JsonObject> {
    const record = this.#find(asker, taskId);
    const raw = await this.#upstream(record, 'tasks/get', { taskId: record.upstreamId });
    if (raw.taskId !== undefined && raw.taskId !== record.upstreamId)
      throw new ProtocolError(ProtocolErrorCode.InternalError, 'The server answered tasks/get with another task');
    const view = taskFields(raw, record.id);
    record.keepUntil = Math.max(record.keepUntil, this.#now() + keepMs(raw));
    record.terminal = TERMINAL.has(String(view.status));
    if (view.status === 'completed' && isObject(raw.result)) view.result = cleanResult(raw.result);
    if (view.status === 'failed') view.error = cleanError(raw.error);
    if (view.status === 'input_required') {
      const config = this.#deps.config(record.serverId);
      const requests = isObject(raw.inputRequests) ? raw.inputRequests : {};
      const shown: Record<string, unknown> = {};
      for (const [key, request] of Object.entries(requests).slice(0, 64)) {
        if (!isObject(request) || typeof request.method !== 'string') continue;
        const params = isObject(request.params) ? request.params : {};
        if (!settingAllows(config, request.method) || !relayable(asker.input, request.method, params)) continue;
        shown[key] = request;
      }
      record.asked = asClientRequests(shown);
      view.inputRequests = record.asked;
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
    await this.#upstream(record, 'tasks/cancel', { taskId: record.upstreamId });
    return { resultType: 'complete' };
  }

  /** Forgets a client's tasks (it was removed, or the gateway stops), cancelling those still running; never throws. */
  async forget(clientId?: string): Promise<void> {
    const gone = [...this.#tasks.values()].filter((t) => clientId === undefined || t.clientId === clientId);
    for (const t of gone) this.#tasks.delete(t.id);
    await Promise.all(
      gone.filter((t) => !t.terminal).map((t) => this.#upstream(t, 'tasks/cancel', { taskId: t.upstreamId }, 2_000).catch(() => undefined)),
    );
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

/** Whether the server's settings allow its request to be answered at all (as for the MRTR relay). */
function settingAllows(config: ServerConfig, method: string): boolean {
  if (method === 'elicitation/create') return config.elicitation;
  if (method === 'sampling/createMessage') return config.sampling === true;
  if (method === 'roots/list') return config.roots === true;
  return false;
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
