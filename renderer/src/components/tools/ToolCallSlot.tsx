// The call area shown inside a tool's detail: the form is filled from a pending "Load into form" of the same tool.
import type { ToolDetail } from '../../../../shared/domains/catalog';
import { useStore } from '../../store';
import { ToolCallPanel } from './ToolCallPanel';

/** The call area for one tool. */
export function ToolCallSlot({ tool }: { tool: ToolDetail }) {
  const replay = useStore((s) => (s.replay?.tool === tool.name ? s.replay : null));
  return (
    <ToolCallPanel
      tool={{ name: tool.name, inputSchema: tool.inputSchema, hasApp: tool.hasApp === true }}
      {...(replay ? { initialArgs: replay.arguments, formKey: replay.nonce } : {})}
    />
  );
}
