// The 2025-11-25 tasks form beside the SEP-2663 extension: a tool that declares `execution.taskSupport` is called
// with `task` in its tools/call params when the server advertises task-augmented tools/call; the handle is followed
// with tasks/get and its payload fetched with tasks/result (call-runner.ts); tasks/list reads the server's inventory.
import type { Client, Tool } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { isObject, type JsonObject } from '../json.js';
import { sanitizeText, truncate } from '../text.js';

/** How a tool may be run as a task (2025-11-25 `execution.taskSupport`). */
export type TaskSupport = 'forbidden' | 'optional' | 'required';

/** The tool's declared task support ("forbidden" when it declares none). */
export function taskSupportOf(tool: Pick<Tool, 'execution'> | undefined): TaskSupport {
  const support = (tool?.execution as { taskSupport?: unknown } | undefined)?.taskSupport;
  return support === 'optional' || support === 'required' ? support : 'forbidden';
}

/** Whether the server advertises the 2025-11-25 `tasks` capability for tools/call. */
export function serverRunsToolTasks(client: Client): boolean {
  const tasks = (client.getServerCapabilities() as { tasks?: unknown } | undefined)?.tasks;
  return isObject(tasks) && isObject(tasks.requests) && isObject(tasks.requests.tools) && isObject(tasks.requests.tools.call);
}

/** Whether the server advertises the 2025-11-25 tasks/list. */
export function serverListsTasks(client: Client): boolean {
  const tasks = (client.getServerCapabilities() as { tasks?: unknown } | undefined)?.tasks;
  return isObject(tasks) && isObject(tasks.list);
}

/** Whether this call goes out in the 2025-11-25 task form. */
export function useLegacyTaskForm(client: Client, support: TaskSupport, tasksOn: boolean): boolean {
  return tasksOn && support !== 'forbidden' && client.getProtocolEra() !== 'modern' && serverRunsToolTasks(client);
}

/** The `task` params member of a task-augmented request: the task may live as long as the call may wait for it. */
export function taskParams(maxWaitSecs: number): JsonObject {
  return { task: { ttl: Math.round(maxWaitSecs * 1000) } };
}

/** One task of a server's inventory, as display data. */
export interface TaskSummary {
  taskId: string;
  status: string;
  statusMessage?: string;
  createdAt?: string;
  lastUpdatedAt?: string;
}

const ListResult = z.looseObject({ tasks: z.array(z.unknown()).optional(), nextCursor: z.string().optional() });

/** Reads one page of the server's tasks/list (2025-11-25), bounded and sanitized. */
export async function listTasks(
  client: Client,
  opts: { cursor?: string; timeoutMs: number },
): Promise<{ tasks: TaskSummary[]; nextCursor?: string }> {
  const raw = await client.request({ method: 'tasks/list', params: opts.cursor ? { cursor: opts.cursor } : {} }, ListResult, {
    timeout: opts.timeoutMs,
  });
  const tasks: TaskSummary[] = [];
  for (const t of (raw.tasks ?? []).slice(0, 1000)) {
    if (!isObject(t) || typeof t.taskId !== 'string' || typeof t.status !== 'string') continue;
    const text = (v: unknown, max: number): string | undefined => (typeof v === 'string' ? truncate(sanitizeText(v), max) : undefined);
    const summary: TaskSummary = { taskId: truncate(sanitizeText(t.taskId), 200), status: truncate(sanitizeText(t.status), 40) };
    const message = text(t.statusMessage, 500);
    const created = text(t.createdAt, 40);
    const updated = text(t.lastUpdatedAt, 40);
    if (message) summary.statusMessage = message;
    if (created) summary.createdAt = created;
    if (updated) summary.lastUpdatedAt = updated;
    tasks.push(summary);
  }
  return { tasks, ...(raw.nextCursor ? { nextCursor: truncate(raw.nextCursor, 4096) } : {}) };
}
