import { routes } from '../router/route';
import { useStore } from '../store';
import { selectServers } from '../store/servers-slice';
import { StatusDot } from './StatusDot';

/** The server list with add and import actions. */
export function Sidebar() {
  const servers = useStore(selectServers);
  const selectedId = useStore((s) => s.selectedId);
  const navigate = useStore((s) => s.navigate);
  const openDialog = useStore((s) => s.openDialog);
  return (
    <nav className="sidebar" aria-label="Servers">
      <div className="sidebar-actions">
        <button type="button" onClick={() => openDialog({ kind: 'addServer' })}>
          Add server
        </button>
        <button type="button" className="secondary" onClick={() => openDialog({ kind: 'import' })}>
          Import
        </button>
        <button type="button" className="secondary" onClick={() => openDialog({ kind: 'export' })} disabled={servers.length === 0}>
          Export
        </button>
      </div>
      <ul className="server-list" aria-label="Server list">
        {servers.map((s) => (
          <li key={s.id}>
            <button
              type="button"
              className={s.id === selectedId ? 'server-item selected' : 'server-item'}
              aria-current={s.id === selectedId ? 'true' : undefined}
              aria-label={`${s.name} (${s.transport})`}
              onClick={() => navigate(routes.servers(s.id))}
            >
              <span className="server-name">{s.name}</span>
              <span className="server-meta">
                <span className="badge">{s.transport}</span>
                <StatusDot server={s} />
              </span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
