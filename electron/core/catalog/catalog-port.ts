// What the tool-call work needs from the catalog: resolve a local name to a route and keep
// routes consistent with publication (seed 000 "Catalog Consistency And Budgets").
import type { Tool } from '@modelcontextprotocol/client';
import type { PinState } from '../../../shared/domains/catalog.js';

/** A published route from a local tool name to a server's original tool. */
export interface ToolRoute {
  /** Local name `mcp__<server>__<tool>`. */
  localName: string;
  /** Server id. */
  serverId: string;
  /** Original MCP tool name, used for the call. */
  originalName: string;
  /** Catalog revision the route was published in. */
  revision: number;
  /** The tool definition as listed. */
  tool: Tool;
  /** Visibility excludes the model. */
  appOnly: boolean;
  /** Whether the user approved the current definition. */
  pin: PinState;
  /** Fingerprint of the definition as listed (what a per-client trust is pinned to). */
  fingerprint: string;
}

/** Catalog operations used by tool calls. */
export interface CatalogPort {
  /**
   * Resolves a local name (refreshing a dirty server first). Throws `not_found`, or `tool_changed` when the tool's
   * definition changed since the user approved it (it cannot be called until `catalog.approveTool`).
   */
  route(localName: string, signal?: AbortSignal): Promise<ToolRoute>;
  /** Throws `stale_route` when the captured route is no longer the published one (revision or definition changed). */
  validate(route: ToolRoute): void;
  /** Resolves once no publication of the server is waiting for its calls; a call awaits it before `beginCall`. */
  whenPublishable(serverId: string, signal?: AbortSignal): Promise<void>;
  /** Marks a call as using the catalog of a server; publication waits until the returned release runs. */
  beginCall(serverId: string): () => void;
}
