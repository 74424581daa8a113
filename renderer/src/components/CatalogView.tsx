import { useCallback, useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../store';
import type { AnnotationFilter } from '../store/catalog-slice';
import './catalog.css';
import { GroupsDirectory } from './GroupsDirectory';
import { renderToolCall } from './ToolCallSlot';
import { ToolDetailPanel } from './ToolDetailPanel';
import { ToolList } from './ToolList';

const ANNOTATIONS: { value: AnnotationFilter; label: string }[] = [
  { value: 'readOnly', label: 'Read-only hint' },
  { value: 'destructive', label: 'Destructive hint' },
  { value: 'idempotent', label: 'Idempotent hint' },
  { value: 'openWorld', label: 'Open-world hint' },
];

/** One searchable catalog across every connected server: groups directory, virtualized list, tool detail. */
export function CatalogView() {
  const s = useStore(
    useShallow((st) => ({
      groups: st.groups,
      query: st.catalogQuery,
      server: st.catalogServer,
      annotation: st.catalogAnnotation,
      results: st.results,
      error: st.catalogError,
      selected: st.selectedTool,
      detail: st.toolDetail,
      toolError: st.toolError,
      approving: st.approving,
      refreshing: st.refreshing,
    })),
  );
  const a = useStore(
    useShallow((st) => ({
      load: st.loadCatalog,
      setQuery: st.setCatalogQuery,
      setServer: st.setCatalogServer,
      setAnnotation: st.setCatalogAnnotation,
      ensureRows: st.ensureRows,
      openTool: st.openTool,
      approve: st.approveTool,
      refresh: st.refreshCatalog,
    })),
  );
  useEffect(() => {
    void a.load();
  }, [a]);
  const rows = s.results.rows;
  const row = useCallback((i: number) => rows[i], [rows]);
  const onRange = useCallback((start: number, end: number) => a.ensureRows(start, end), [a]);
  return (
    <section className="catalog-page" aria-label="Catalog">
      <header className="page-header">
        <h1>Catalog</h1>
        <button type="button" className="secondary" disabled={s.refreshing} onClick={() => void a.refresh()}>
          {s.refreshing ? 'Refreshing…' : 'Refresh all'}
        </button>
      </header>
      <details open>
        <summary>Capability groups ({s.groups.length})</summary>
        <GroupsDirectory groups={s.groups} onPick={(id) => a.setServer(id)} />
      </details>
      <div className="catalog-toolbar">
        <input
          type="search"
          aria-label="Search tools"
          placeholder="Search tools by name, title or description"
          value={s.query}
          onChange={(e) => a.setQuery(e.target.value)}
        />
        <select aria-label="Server" value={s.server ?? ''} onChange={(e) => a.setServer(e.target.value || null)}>
          <option value="">All servers</option>
          {s.groups.map((g) => (
            <option key={g.serverId} value={g.serverId}>
              {g.serverId}
            </option>
          ))}
        </select>
        <select
          aria-label="Annotation"
          value={s.annotation ?? ''}
          onChange={(e) => a.setAnnotation((e.target.value || null) as AnnotationFilter | null)}
        >
          <option value="">Any hint</option>
          {ANNOTATIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        <span data-testid="catalog-total" aria-live="polite">
          {s.results.total.toLocaleString('en-US')} tools
        </span>
      </div>
      {s.error && (
        <div className="error-text" role="alert">
          {s.error}
        </div>
      )}
      <div className="catalog-split">
        <ToolList
          total={s.results.total}
          row={row}
          selected={s.selected}
          onSelect={(n) => void a.openTool(n)}
          onRange={onRange}
          dataKey={s.results.key}
        />
        <div className="catalog-detail">
          {s.toolError && (
            <div className="error-text" role="alert">
              {s.toolError}
            </div>
          )}
          {s.detail ? (
            <ToolDetailPanel
              tool={s.detail}
              onApprove={(n, f) => void a.approve(n, f)}
              approving={s.approving}
              renderCallForm={renderToolCall}
            />
          ) : (
            <p className="hint">Select a tool to see its detail.</p>
          )}
        </div>
      </div>
    </section>
  );
}
