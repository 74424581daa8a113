// The MCP server a gateway client talks to: a low-level SDK `Server` whose handlers read the catalog and the
// host at request time (nothing is registered per tool, so building one per stateless request stays cheap).
// tools/list serves the profile's tools (every visible tool, or the discovery tools plus the session's
// selections), tools/call goes through GatewayCalls, and prompts, resources and completion through Forwarding.
// Nothing here can add, change, approve or remove a server: no such method or tool exists.
import {
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolResult,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import * as z from 'zod';
import { AppError } from '../../../shared/errors.js';
import { checkCallArguments } from '../ingress/arguments.js';
import { isObject, type JsonObject } from '../json.js';
import { DISCOVERY_TOOLS, runDiscoveryTool, type DiscoveryContext } from './discovery-tools.js';
import type { Forwarding } from './forwarding.js';
import type { GatewayCalls, RoundContext } from './gateway-calls.js';
import type { ProfileView } from './profile.js';
import type { SessionScope } from './session-scope.js';
import type { SkillListing } from './skill-listing.js';
import type { GatewayCatalog, ToolListing, VisibleTools } from './tool-listing.js';
import type { GatewayTaskRelay } from './tasks/task-relay.js';
import { negotiatedTasks, registerTaskMethods, roundTasks, TASKS_DECLARATION } from './tasks/task-surface.js';

/** Tools per tools/list page, and bytes per page. */
export const PAGE_TOOLS = 2000;
export const PAGE_BYTES = 2 * 1024 * 1024;

/** The client a server instance serves. */
export interface SurfaceClient {
  id: string;
  name: string;
}

/** What every surface instance shares. */
export interface SurfaceDeps {
  version: string;
  catalog: GatewayCatalog;
  listing: ToolListing;
  calls: GatewayCalls;
  forwarding: Forwarding;
  /** The skills served to clients (absent: the extension is never declared). */
  skills?: SkillListing;
  /** The tasks relay (absent: the tasks extension is never declared; upstream tasks are followed to their end). */
  tasks?: GatewayTaskRelay;
  /** The client's profile now (it may change while sessions are open). */
  view(clientId: string): ProfileView | undefined;
  serverNote(serverId: string): string | undefined;
  serverName(serverId: string): string;
}

/** One instance: a stateless 2026-07-28 request or a 2025-11-25 session. */
export interface SurfaceInstance {
  client: SurfaceClient;
  era: 'legacy' | 'modern';
  scope: SessionScope;
  /** Resource subscriptions of a 2025-11-25 session (wrapped URI → upstream target). */
  subscriptions?: Map<string, { serverId: string; uri: string }>;
}

/** Turns what a handler throws into a JSON-RPC error a client can read (never a stack or a secret). */
function asProtocolError(err: unknown): ProtocolError {
  if (err instanceof ProtocolError) return err;
  if (err instanceof AppError)
    return new ProtocolError(
      err.code === 'limit_exceeded' ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InternalError,
      err.message,
    );
  return new ProtocolError(ProtocolErrorCode.InternalError, 'The gateway could not complete the request');
}

function guarded<A extends unknown[], R>(fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args: A) => {
    try {
      return await fn(...args);
    } catch (err) {
      throw asProtocolError(err);
    }
  };
}

function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const n = /^o(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'))?.[1];
  if (n === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid cursor');
  return Number(n);
}

const encodeCursor = (offset: number): string => Buffer.from(`o${offset}`, 'utf8').toString('base64url');

/** The input the client declared it can give: elicitation modes (bare `{}` is form), sampling, roots. */
function declaredInput(server: Server): Pick<RoundContext, 'elicitation' | 'sampling' | 'roots'> {
  const declared = server.getClientCapabilities();
  const caps = declared?.elicitation;
  return {
    elicitation: isObject(caps)
      ? { form: isObject(caps.form) || (!('form' in caps) && !('url' in caps)), url: isObject(caps.url) }
      : { form: false, url: false },
    sampling: isObject(declared?.sampling),
    roots: isObject(declared?.roots),
  };
}

/** Builds the SDK server for one instance. */
export function buildSurface(deps: SurfaceDeps, instance: SurfaceInstance): Server {
  const { client } = instance;
  const viewNow = (): ProfileView => {
    const view = deps.view(client.id);
    if (!view) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, 'This gateway client was removed');
    return view;
  };
  const initial = deps.view(client.id);
  const progressive = initial?.progressive === true;
  const legacy = instance.era === 'legacy';
  const skillsExtension = deps.skills?.declaration(initial);
  // The tasks extension exists on 2026-07-28 only (SEP-2663); 2025-11-25 sessions keep getting finished results.
  const tasks = legacy ? undefined : deps.tasks;
  const extensions = { ...(skillsExtension ?? {}), ...(tasks ? TASKS_DECLARATION : {}) };
  const server = new Server(
    { name: 'switchboard-gateway', title: 'Switchboard', version: deps.version },
    {
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { listChanged: true, ...(legacy ? { subscribe: true } : {}) },
        completions: {},
        logging: {},
        ...(Object.keys(extensions).length === 0 ? {} : { extensions }),
      },
      instructions: progressive
        ? 'Switchboard gateway. Tools of the servers you may use are grouped by server. Call tools_groups to see the groups, tools_select to add a group or named tools to your tool list (you get notifications/tools/list_changed), and tools_search to find tools by what they do.'
        : 'Switchboard gateway: the tools, prompts and resources of the servers this client may use, through the connections Switchboard manages.',
    },
  );
  const visible = (): VisibleTools => deps.listing.visible(viewNow());

  server.setRequestHandler(
    'tools/list',
    guarded(async (request) => {
      const view = viewNow();
      if (view.progressive) {
        const all = visible();
        const selected = instance.scope
          .names()
          .map((n) => all.byLocal.get(n)?.def)
          .filter((d): d is Tool => d !== undefined);
        return { tools: [...DISCOVERY_TOOLS, ...selected] };
      }
      const tools = visible().tools;
      const start = decodeCursor(request.params?.cursor);
      const page: Tool[] = [];
      let bytes = 0;
      let i = start;
      for (; i < tools.length && page.length < PAGE_TOOLS; i++) {
        const t = tools[i]!;
        if (page.length > 0 && bytes + t.bytes > PAGE_BYTES) break;
        bytes += t.bytes;
        page.push(t.def);
      }
      return { tools: page, ...(i < tools.length ? { nextCursor: encodeCursor(i) } : {}) };
    }),
  );

  server.setRequestHandler(
    'tools/call',
    guarded(async (request, ctx: ServerContext): Promise<CallToolResult> => {
      const view = viewNow();
      const name = request.params.name;
      const args = isObject(request.params.arguments) ? request.params.arguments : {};
      // Bounded where they enter, before the ask, the route or the history sees them (limit_exceeded: invalid params).
      checkCallArguments(args, `The gateway client ${client.name}`);
      if (view.progressive && !view.original) {
        const discovery: DiscoveryContext = {
          view,
          scope: instance.scope,
          catalog: deps.catalog,
          visible,
          serverNote: deps.serverNote,
          serverName: deps.serverName,
        };
        const result = runDiscoveryTool(name, args, discovery);
        if (result) return result;
      }
      const state = ctx.mcpReq.requestState();
      const round: RoundContext = {
        client,
        view,
        visible,
        signal: ctx.mcpReq.signal,
        ...(ctx.mcpReq._meta?.progressToken !== undefined ? { progressToken: ctx.mcpReq._meta.progressToken } : {}),
        notify: (n) => ctx.mcpReq.notify(n as Parameters<typeof ctx.mcpReq.notify>[0]),
        // The SDK sends a message only at or above the client's level: its session's (2025-11-25) or its request's (2026-07-28).
        log: (level: string, data: unknown, logger?: string) => ctx.mcpReq.log(level as 'info', data, logger),
        ...declaredInput(server),
        ...(typeof state === 'string' ? { requestState: state } : {}),
        ...(ctx.mcpReq.inputResponses ? { inputResponses: ctx.mcpReq.inputResponses } : {}),
        ...(tasks
          ? { tasks: roundTasks(tasks, client.id, negotiatedTasks(server, ctx.mcpReq._meta as Record<string, unknown> | undefined)) }
          : {}),
      };
      const result = await deps.calls.call(round, name, args);
      const r = result as JsonObject;
      if (r.resultType === 'input_required') {
        return inputRequired({
          inputRequests: r.inputRequests as NonNullable<Parameters<typeof inputRequired>[0]['inputRequests']>,
          requestState: r.requestState as string,
        }) as unknown as CallToolResult;
      }
      return result;
    }),
  );

  server.setRequestHandler(
    'prompts/list',
    guarded(async () => (await deps.forwarding.listPrompts(viewNow())) as never),
  );
  server.setRequestHandler(
    'prompts/get',
    guarded(async (request, ctx: ServerContext) => {
      const state = ctx.mcpReq.requestState();
      const result = await deps.forwarding.getPrompt(viewNow(), request.params.name, request.params.arguments, {
        clientId: client.id,
        ...declaredInput(server),
        ...(typeof state === 'string' ? { requestState: state } : {}),
        ...(ctx.mcpReq.inputResponses ? { inputResponses: ctx.mcpReq.inputResponses } : {}),
      });
      if (result.resultType === 'input_required')
        return inputRequired({
          inputRequests: result.inputRequests as NonNullable<Parameters<typeof inputRequired>[0]['inputRequests']>,
          requestState: result.requestState as string,
        }) as never;
      return result as never;
    }),
  );
  server.setRequestHandler(
    'resources/list',
    guarded(async () => {
      const view = viewNow();
      const listed = (await deps.forwarding.listResources(view)) as { resources: { uri: string }[] };
      // Files of skills that are not served to this client are not listed (reading them would be refused).
      return (deps.skills === undefined ? listed : await deps.skills.filterResources(view, listed)) as never;
    }),
  );
  server.setRequestHandler(
    'resources/templates/list',
    guarded(async () => (await deps.forwarding.listTemplates(viewNow())) as never),
  );
  server.setRequestHandler(
    'resources/read',
    guarded(async (request) => {
      const view = viewNow();
      // A file of a skill the server lists is served only verified and approved; any other resource is forwarded.
      const skillFile = await deps.skills?.read(view, request.params.uri);
      return (skillFile ?? (await deps.forwarding.readResource(view, request.params.uri))) as never;
    }),
  );
  if (deps.skills !== undefined && skillsExtension !== undefined) {
    const skills = deps.skills;
    const ListParams = z.looseObject({ cursor: z.string().max(1024).optional() });
    const UriParams = z.looseObject({ uri: z.string().min(1).max(16_384), cursor: z.string().max(1024).optional() });
    server.setRequestHandler(
      'skills/list',
      { params: ListParams },
      guarded(async (params) => (await skills.list(viewNow(), params.cursor)) as never),
    );
    server.setRequestHandler(
      'skills/get',
      { params: UriParams },
      guarded(async (params) => (await skills.get(viewNow(), params.uri)) as never),
    );
    server.setRequestHandler(
      'resources/directory/read',
      { params: UriParams },
      guarded(async (params) => (await skills.readDirectory(viewNow(), params.uri)) as never),
    );
  }
  server.setRequestHandler(
    'completion/complete',
    guarded(async (request) => (await deps.forwarding.complete(viewNow(), request.params as unknown as JsonObject)) as never),
  );
  if (tasks)
    registerTaskMethods(server, tasks, { clientId: client.id, sees: (id) => viewNow().sees(id), input: () => declaredInput(server) });
  if (legacy && instance.subscriptions) {
    const subs = instance.subscriptions;
    server.setRequestHandler(
      'resources/subscribe',
      guarded(async (request) => {
        const uri = request.params.uri;
        if (!subs.has(uri)) subs.set(uri, await deps.forwarding.subscribe(viewNow(), uri));
        return {};
      }),
    );
    server.setRequestHandler(
      'resources/unsubscribe',
      guarded(async (request) => {
        const target = subs.get(request.params.uri);
        if (target) {
          subs.delete(request.params.uri);
          await deps.forwarding.unsubscribe(target.serverId, target.uri);
        }
        return {};
      }),
    );
  }
  return server;
}
