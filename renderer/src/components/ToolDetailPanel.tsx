import type { ReactNode } from 'react';
import type { ToolDetail } from '../../../shared/domains/catalog';
import { prettyJson } from '../../../shared/domains/catalog-text';

const HINTS: { key: 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint'; label: string }[] = [
  { key: 'readOnlyHint', label: 'Read-only' },
  { key: 'destructiveHint', label: 'Destructive' },
  { key: 'idempotentHint', label: 'Idempotent' },
  { key: 'openWorldHint', label: 'Open world' },
];

/** Props of the tool detail panel. */
export interface ToolDetailPanelProps {
  tool: ToolDetail;
  /** Approves the definition shown (the fingerprint in `tool`). */
  onApprove: (name: string, fingerprint: string) => void;
  approving?: boolean;
  /**
   * Slot for the call form (the tool-call work fills it). Called only while the tool may be called; a tool whose
   * definition changed since approval shows the approval banner instead.
   */
  renderCallForm?: (tool: ToolDetail) => ReactNode;
}

/** "Changed since approved": the diff and the Approve button. */
export function PinBanner({
  tool,
  onApprove,
  approving,
}: {
  tool: ToolDetail;
  onApprove: (name: string, fingerprint: string) => void;
  approving?: boolean;
}) {
  return (
    <section className="pin-banner" role="alert" aria-label="Changed since approved">
      <strong>Changed since approved.</strong> The server changed this tool&apos;s definition after you first saw it. It cannot be called
      until you review and approve the new definition.
      {tool.diff.map((d) => (
        <div key={d.field}>
          <h4>{d.field}</h4>
          <div className="grid2">
            <div>
              <div className="hint">Approved</div>
              <pre className="diff-before">{d.before}</pre>
            </div>
            <div>
              <div className="hint">Now</div>
              <pre className="diff-after">{d.after}</pre>
            </div>
          </div>
        </div>
      ))}
      <div className="row">
        <button type="button" disabled={approving} onClick={() => onApprove(tool.name, tool.fingerprint)}>
          Approve new definition
        </button>
      </div>
    </section>
  );
}

/** One tool: names, description, hints, schemas, and the call slot. Server text is rendered as text only. */
export function ToolDetailPanel({ tool, onApprove, approving, renderCallForm }: ToolDetailPanelProps) {
  const hints = HINTS.filter((h) => tool.annotations[h.key] !== undefined);
  const callable = tool.pin === 'approved';
  return (
    <article aria-label="Tool detail" data-testid="tool-detail">
      <h2>{tool.title ?? tool.originalName}</h2>
      <dl>
        <dt>Local name</dt>
        <dd className="mono" data-testid="tool-local-name">
          {tool.name}
        </dd>
        <dt>Original name</dt>
        <dd className="mono">{tool.originalName}</dd>
        <dt>Server</dt>
        <dd>{tool.serverId}</dd>
      </dl>
      {tool.stale && <p className="stale-note">The server&apos;s latest tool list was rejected; this is the last good definition.</p>}
      {tool.appOnly && <p className="hint">App-only: the server marked this tool as not meant for the model.</p>}
      {tool.ui?.resourceUri && (
        <p className="hint" data-testid="tool-has-app">
          Has an app: its results are shown in <span className="mono">{tool.ui.resourceUri}</span>, in a sandbox.
        </p>
      )}
      {tool.pin === 'changed' && <PinBanner tool={tool} onApprove={onApprove} {...(approving !== undefined ? { approving } : {})} />}
      <h3>Description</h3>
      <p className="tool-desc-full">{tool.fullDescription || <span className="hint">No description.</span>}</p>
      <h3>Hints from the server</h3>
      <p className="hint">Annotations are claims made by the server, not verified and not permissions.</p>
      {hints.length === 0 ? (
        <p className="hint">None given.</p>
      ) : (
        <ul aria-label="Hints from the server">
          {hints.map((h) => (
            <li key={h.key}>
              {h.label}: {tool.annotations[h.key] ? 'yes' : 'no'}
            </li>
          ))}
          {tool.annotations.title && <li>Title hint: {tool.annotations.title}</li>}
        </ul>
      )}
      <details className="schema" open>
        <summary>Input schema</summary>
        {tool.schemaOmitted && <p className="hint">The schema was over the size budget and is not shown.</p>}
        <pre>{prettyJson(tool.inputSchema)}</pre>
      </details>
      {tool.outputSchema && (
        <details className="schema">
          <summary>Output schema</summary>
          <pre>{prettyJson(tool.outputSchema)}</pre>
        </details>
      )}
      <section aria-label="Call" data-testid="tool-call-slot" data-callable={callable ? 'true' : 'false'}>
        {callable ? (renderCallForm?.(tool) ?? null) : <p className="hint">Calling is disabled until the new definition is approved.</p>}
      </section>
    </article>
  );
}
