import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type { ToolDetail, ToolSummary } from '../../../shared/domains/catalog';
import { AppError } from '../../../shared/errors';
import { catalogService } from '../services/catalog';
import { useStore } from '../store';
import './catalog.css';
import { ToolDetailPanel } from './ToolDetailPanel';
import { ToolList } from './ToolList';

/** Props of the server's Tools tab. */
export interface ToolsTabProps {
  serverId: string;
  /** Slot for the call form inside the tool detail (filled by the tool-call work). */
  renderCallForm?: (tool: ToolDetail) => ReactNode;
}

/** Tools of one server: a filterable virtualized list and the detail panel with the call slot. */
export function ToolsTab({ serverId, renderCallForm }: ToolsTabProps) {
  const revision = useStore((s) => s.catalogRevision);
  const loadCatalog = useStore((s) => s.loadCatalog);
  const [query, setQuery] = useState('');
  const [tools, setTools] = useState<ToolSummary[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [detail, setDetail] = useState<ToolDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [approving, setApproving] = useState(false);
  const [refreshing, setRefreshing] = useState(false);

  useEffect(() => {
    void loadCatalog(); // subscribes to catalog.changed
  }, [loadCatalog]);
  useEffect(() => {
    let live = true;
    catalogService.search({ query, serverIds: [serverId], limit: 25_000, includeGroups: false }).then(
      (r) => live && setTools(r.tools),
      (e: unknown) => live && setError(e instanceof AppError ? e.message : 'The tools could not be loaded'),
    );
    return () => {
      live = false;
    };
  }, [serverId, query, revision]);
  useEffect(() => {
    if (!selected) return;
    let live = true;
    catalogService.tool(selected).then(
      (d) => live && setDetail(d),
      () => live && setDetail(null),
    );
    return () => {
      live = false;
    };
  }, [selected, revision]);

  const row = useCallback((i: number) => tools[i], [tools]);
  const approve = (name: string, fingerprint: string): void => {
    setApproving(true);
    catalogService
      .approve(name, fingerprint)
      .then(setDetail, (e: unknown) => setError(e instanceof AppError ? e.message : 'Approval failed'))
      .finally(() => setApproving(false));
  };
  const refresh = (): void => {
    setRefreshing(true);
    setError(null);
    catalogService
      .refresh(serverId)
      .then(
        (r) => {
          const failed = r.servers.find((x) => !x.ok);
          if (failed) setError(failed.error ?? 'The refresh failed');
        },
        (e: unknown) => setError(e instanceof AppError ? e.message : 'The refresh failed'),
      )
      .finally(() => setRefreshing(false));
  };
  return (
    <section aria-label="Tools">
      <div className="catalog-toolbar">
        <input
          type="search"
          aria-label="Filter tools"
          placeholder="Filter this server's tools"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <span>{tools.length.toLocaleString('en-US')} tools</span>
        <button type="button" className="secondary" disabled={refreshing} onClick={refresh}>
          {refreshing ? 'Refreshing…' : 'Refresh tools'}
        </button>
      </div>
      {error && (
        <div className="error-text" role="alert">
          {error}
        </div>
      )}
      <div className="tools-tab">
        <ToolList
          total={tools.length}
          row={row}
          selected={selected}
          onSelect={setSelected}
          dataKey={`${serverId}|${query}|${revision}`}
          label="Server tools"
        />
        <div className="catalog-detail">
          {detail ? (
            <ToolDetailPanel tool={detail} onApprove={approve} approving={approving} {...(renderCallForm ? { renderCallForm } : {})} />
          ) : (
            <p className="hint">Select a tool to see its detail.</p>
          )}
        </div>
      </div>
    </section>
  );
}
