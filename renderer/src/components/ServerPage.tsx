import { useStore } from '../store';
import { routes } from '../router/route';
import { selectServerTab, type ServerTab } from '../store/ui-slice';
import { ApprovalPanel } from './ApprovalPanel';
import { AuthPanel } from './AuthPanel';
import { Doctor } from './Doctor';
import { LogView } from './LogView';
import { PromptsTab } from './PromptsTab';
import { ClientFeaturesPanel } from './protocol/ClientFeaturesPanel';
import { ProtocolView } from './protocol/ProtocolView';
import { ServerTasks } from './protocol/ServerTasks';
import { ResourcesTab } from './ResourcesTab';
import { StatusDot } from './StatusDot';
import { renderToolCall } from './ToolCallSlot';
import { ToolsTab } from './ToolsTab';

const TABS: { id: ServerTab; label: string }[] = [
  { id: 'overview', label: 'Overview' },
  { id: 'tools', label: 'Tools' },
  { id: 'resources', label: 'Resources' },
  { id: 'prompts', label: 'Prompts' },
  { id: 'auth', label: 'Sign-in' },
  { id: 'features', label: 'Client features' },
  { id: 'protocol', label: 'Protocol' },
];

/** One server: header with status and identity, actions, approval, doctor and log. */
export function ServerPage() {
  const detail = useStore((s) => s.detail);
  const actionError = useStore((s) => s.actionError);
  const run = useStore((s) => s.runServerAction);
  const openDialog = useStore((s) => s.openDialog);
  const tab = useStore(selectServerTab);
  const navigate = useStore((s) => s.navigate);
  const setTab = (t: ServerTab) => detail && navigate(routes.servers(detail.id, t === 'overview' ? undefined : t));
  if (!detail) return <section className="page" aria-busy="true" />;
  const st = detail.status;
  const busy = st.state === 'connecting';
  return (
    <section className="page" aria-labelledby="server-title">
      <header className="page-header">
        <div>
          <h1 id="server-title">{detail.name}</h1>
          <div className="sub">
            <span className="badge">{detail.transport}</span> <span className="mono">{detail.target}</span>
          </div>
        </div>
        <div className="row">
          <StatusDot server={detail} />
        </div>
      </header>
      <div className="row actions">
        <button
          type="button"
          disabled={busy || st.state === 'connected' || detail.needsApproval}
          onClick={() => void run(detail.id, 'connect')}
        >
          Connect
        </button>
        <button
          type="button"
          className="secondary"
          disabled={st.state === 'disconnected'}
          onClick={() => void run(detail.id, 'disconnect')}
        >
          Disconnect
        </button>
        <button type="button" className="secondary" disabled={detail.needsApproval} onClick={() => void run(detail.id, 'restart')}>
          Restart
        </button>
        <button type="button" className="secondary" onClick={() => openDialog({ kind: 'editServer', id: detail.id })}>
          Edit
        </button>
        <button type="button" className="danger" onClick={() => openDialog({ kind: 'removeServer', id: detail.id })}>
          Remove
        </button>
      </div>
      {actionError && (
        <div className="error-text" role="alert">
          {actionError}
        </div>
      )}
      {detail.approval?.required && <ApprovalPanel id={detail.id} approval={detail.approval} />}
      {st.error && st.error.code !== 'approval_required' && <Doctor error={st.error} />}
      <div role="tablist" aria-label="Server sections" className="tabs">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            aria-selected={tab === t.id}
            className={tab === t.id ? 'tab active' : 'tab'}
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      {tab === 'tools' && <ToolsTab serverId={detail.id} renderCallForm={renderToolCall} />}
      {tab === 'resources' && <ResourcesTab serverId={detail.id} />}
      {tab === 'prompts' && <PromptsTab serverId={detail.id} />}
      {tab === 'auth' && <AuthPanel serverId={detail.id} />}
      {tab === 'features' && <ClientFeaturesPanel serverId={detail.id} />}
      {tab === 'protocol' && <ProtocolView serverId={detail.id} />}
      {tab === 'protocol' && <ServerTasks serverId={detail.id} />}
      {tab === 'overview' && st.state === 'connected' && (
        <section aria-label="Server information" className="identity">
          <dl>
            <dt>Protocol</dt>
            <dd data-testid="protocol-version">
              {st.protocolVersion ?? 'unknown'}
              {st.lifecycle ? ` (via ${st.lifecycle})` : ''}
            </dd>
            {detail.identity && (
              <>
                <dt>Server</dt>
                <dd>
                  {detail.identity.title ?? detail.identity.name}{' '}
                  <span className="hint">
                    {detail.identity.name} {detail.identity.version}
                  </span>
                </dd>
                <dt>Capabilities</dt>
                <dd>{detail.identity.capabilities.join(', ') || 'none'}</dd>
              </>
            )}
          </dl>
          {detail.identity?.instructions && (
            <details open>
              <summary>Instructions from the server (untrusted)</summary>
              <pre className="instructions">{detail.identity.instructions}</pre>
            </details>
          )}
        </section>
      )}
      {tab === 'overview' && <LogView />}
    </section>
  );
}
