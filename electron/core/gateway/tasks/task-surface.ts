// The tasks extension on a gateway client's 2026-07-28 surface: its declaration under `capabilities.extensions`,
// whether a request negotiated it (the request's client capabilities: session-level and per-request `_meta` are
// the same envelope on 2026-07-28), and the tasks/get, tasks/update and tasks/cancel methods. A request that did
// not negotiate the extension gets -32021 (MissingRequiredClientCapability) naming it; tasks/result and tasks/list
// (removed by SEP-2663) stay unregistered, so they are -32601. 2025-11-25 sessions get none of this.
import { ProtocolError, ProtocolErrorCode, type Server, type ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { CLIENT_CAPABILITIES_META, TASKS_EXTENSION } from '../../calls/call-runner.js';
import { isObject, type JsonObject } from '../../json.js';
import type { RoundContext } from '../gateway-calls.js';
import type { GatewayTaskRelay, TaskAsker, TaskTool } from './task-relay.js';

/** The `capabilities.extensions` entry the gateway declares on 2026-07-28 surfaces. */
export const TASKS_DECLARATION: Record<string, Record<string, never>> = { [TASKS_EXTENSION]: {} };

/** The error a request gets when it needs the tasks extension and did not negotiate it. */
export function tasksRequired(what: string): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.MissingRequiredClientCapability,
    `${what} needs the ${TASKS_EXTENSION} extension, which this request did not declare`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );
}

/** Whether this request declared the tasks extension (its client capabilities, or its own `_meta`). */
export function negotiatedTasks(server: Server, meta: Record<string, unknown> | undefined): boolean {
  const declared = server.getClientCapabilities() as { extensions?: unknown } | undefined;
  if (isObject(declared?.extensions) && declared.extensions[TASKS_EXTENSION] !== undefined) return true;
  const caps = meta?.[CLIENT_CAPABILITIES_META];
  return isObject(caps) && isObject(caps.extensions) && caps.extensions[TASKS_EXTENSION] !== undefined;
}

const TaskIdParams = z.looseObject({ taskId: z.string().min(1).max(1024) });
const UpdateParams = z.looseObject({ taskId: z.string().min(1).max(1024), inputResponses: z.unknown().optional() });

/** What the methods learn of the request's client. */
export interface TaskMethodContext {
  clientId: string;
  sees(serverId: string): boolean;
  input(): Pick<RoundContext, 'elicitation' | 'sampling' | 'roots'>;
}

/** Registers tasks/get, tasks/update and tasks/cancel on one 2026-07-28 surface instance. */
export function registerTaskMethods(server: Server, relay: GatewayTaskRelay, context: TaskMethodContext): void {
  const asker = (ctx: ServerContext, method: string): TaskAsker => {
    if (!negotiatedTasks(server, ctx.mcpReq._meta as Record<string, unknown> | undefined)) throw tasksRequired(method);
    return { clientId: context.clientId, sees: (id) => context.sees(id), input: context.input() };
  };
  server.setRequestHandler('tasks/get', { params: TaskIdParams }, async (params, ctx) => relay.get(asker(ctx, 'tasks/get'), params.taskId));
  server.setRequestHandler('tasks/update', { params: UpdateParams }, async (params, ctx) =>
    // The SDK lifts inputResponses off the params as it does for MRTR retries.
    relay.update(asker(ctx, 'tasks/update'), params.taskId, ctx.mcpReq.inputResponses ?? params.inputResponses),
  );
  server.setRequestHandler('tasks/cancel', { params: TaskIdParams }, async (params, ctx) =>
    relay.cancel(asker(ctx, 'tasks/cancel'), params.taskId),
  );
}

/** The tasks side of one tools/call request on a 2026-07-28 surface. */
export interface RoundTasks {
  /** Whether the request negotiated the tasks extension (then an upstream task is handed to the client). */
  negotiated: boolean;
  /** The error for a call its server runs only as a task, when the request did not negotiate the extension. */
  refusal(): ProtocolError;
  /** Takes an upstream task handle for this client; returns the CreateTaskResult the client gets. */
  adopt(serverId: string, handle: JsonObject, tool?: TaskTool): JsonObject;
}

/** The tasks side of a tools/call request of `clientId`. */
export function roundTasks(relay: GatewayTaskRelay, clientId: string, negotiated: boolean): RoundTasks {
  return {
    negotiated,
    refusal: () => tasksRequired('This tool'),
    adopt: (serverId, handle, tool) => relay.adopt(clientId, serverId, handle, tool),
  };
}
