// Bridges the catalog's tool detail panel and the call panel: the form is filled from a pending replay
// of the same tool, if any.
import type { ToolDetail } from '../../../shared/domains/catalog';
import { useStore } from '../store';
import { ToolCallPanel } from './ToolCallPanel';

/** The call area shown inside a tool's detail panel. */
export function ToolCallSlot({ tool }: { tool: ToolDetail }) {
  const replay = useStore((s) => (s.replay?.tool === tool.name ? s.replay : null));
  return (
    <ToolCallPanel
      tool={{ name: tool.name, inputSchema: tool.inputSchema, hasApp: tool.hasApp === true }}
      {...(replay ? { initialArgs: replay.arguments, formKey: replay.nonce } : {})}
    />
  );
}

/** Render prop for ToolDetailPanel / ToolsTab. */
export const renderToolCall = (tool: ToolDetail) => <ToolCallSlot tool={tool} />;
