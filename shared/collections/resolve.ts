// Which catalog tool a collection's call names: its local name (mcp__server__tool) exactly, or else the one tool with
// that name on its server. Shared by `switchboard run` and the History view's runner, so both pick the same tool.
import type { ToolSummary } from '../domains/catalog.js';

/** The tool a call names, or why none is picked. */
export type PickedTool = { ok: true; tool: ToolSummary } | { ok: false; reason: 'ambiguous' | 'not_found'; message: string };

/** Picks the tool `name` among `tools` (already narrowed to the call's server when it names one). */
export function pickTool(tools: readonly ToolSummary[], name: string, server: string | undefined): PickedTool {
  const exact = tools.find((t) => t.name === name);
  if (exact) return { ok: true, tool: exact };
  const matches = tools.filter((t) => t.originalName === name);
  if (matches.length === 1) return { ok: true, tool: matches[0]! };
  if (matches.length > 1)
    return {
      ok: false,
      reason: 'ambiguous',
      message: `Several servers offer ${name} (${matches.map((t) => t.serverId).join(', ')}): name its server (--server, or "server" in a collection)`,
    };
  return { ok: false, reason: 'not_found', message: `No tool named ${name}${server !== undefined ? ` on ${server}` : ''}` };
}
