import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import type { ToolSummary } from '../../../shared/domains/catalog';

const ROW_HEIGHT = 56;

/** Props of the virtualized tool list. */
export interface ToolListProps {
  /** Total rows (some may not be loaded yet). */
  total: number;
  /** Row at an index, when loaded. */
  row: (index: number) => ToolSummary | undefined;
  selected: string | null;
  onSelect: (name: string) => void;
  /** Called with the visible index range so missing rows can be loaded. */
  onRange?: (start: number, end: number) => void;
  /** Changes when the row data changes identity (new query or revision). */
  dataKey: string;
  label?: string;
}

function Chips({ tool }: { tool: ToolSummary }) {
  const a = tool.annotations;
  return (
    <>
      {tool.pin === 'changed' && <span className="chip chip-warn">changed</span>}
      {tool.stale && <span className="chip chip-warn">stale</span>}
      {tool.appOnly && <span className="chip">app-only</span>}
      {tool.hasApp && <span className="chip">app</span>}
      {a.readOnlyHint && <span className="chip">read-only</span>}
      {a.destructiveHint && <span className="chip chip-danger">destructive</span>}
      {a.openWorldHint && <span className="chip">open world</span>}
    </>
  );
}

/** A virtualized list of tools: only the visible rows are in the DOM, so 20,000 rows scroll smoothly. */
export function ToolList({ total, row, selected, onSelect, onRange, dataKey, label = 'Tools' }: ToolListProps) {
  const parent = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => parent.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  useEffect(() => {
    if (total > 0) onRange?.(first, last);
  }, [first, last, total, dataKey, onRange]);
  return (
    <div ref={parent} className="catalog-list" role="list" aria-label={label} data-testid="tool-list">
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {items.map((item) => {
          const tool = row(item.index);
          return (
            <div
              key={item.key}
              role="listitem"
              style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${item.start}px)` }}
            >
              {tool ? (
                <button
                  type="button"
                  className={tool.name === selected ? 'tool-row selected' : 'tool-row'}
                  style={{ position: 'relative' }}
                  aria-label={tool.name}
                  aria-current={tool.name === selected}
                  onClick={() => onSelect(tool.name)}
                >
                  <span className="tool-row-top">
                    <span className="tool-name">{tool.name}</span>
                    <Chips tool={tool} />
                  </span>
                  <span className="tool-desc">
                    {tool.title ? `${tool.title} — ` : ''}
                    {tool.description}
                  </span>
                </button>
              ) : (
                <div className="tool-row" style={{ position: 'relative' }} aria-busy="true">
                  <span className="hint">Loading…</span>
                </div>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
