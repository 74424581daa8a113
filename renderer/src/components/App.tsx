import { useEffect } from 'react';
import { useStore } from '../store';
import { selectDialog } from '../store/ui-slice';
import { CatalogView } from './CatalogView';
import { ElicitationHost } from './ElicitationHost';
import { EmptyState } from './EmptyState';
import { HistoryView } from './HistoryView';
import { ExportDialog } from './ExportDialog';
import { ImportDialog } from './ImportDialog';
import { Notices } from './Notices';
import { RemoveDialog } from './RemoveDialog';
import { ServerDialog } from './ServerDialog';
import { ServerPage } from './ServerPage';
import { Sidebar } from './Sidebar';

function Dialogs() {
  const dialog = useStore(selectDialog);
  const detail = useStore((s) => s.detail);
  switch (dialog.kind) {
    case 'addServer':
      return <ServerDialog />;
    case 'editServer':
      return detail?.id === dialog.id ? <ServerDialog existing={detail.config} /> : null;
    case 'removeServer':
      return <RemoveDialog id={dialog.id} />;
    case 'import':
      return <ImportDialog />;
    case 'export':
      return <ExportDialog />;
    case 'none':
      return null;
  }
}

/** The app shell: sidebar, main page, notices, dialogs. */
export function App() {
  const start = useStore((s) => s.start);
  const bridgeState = useStore((s) => s.bridgeState);
  const bridgeError = useStore((s) => s.bridgeError);
  const loaded = useStore((s) => s.loaded);
  const count = useStore((s) => s.servers.length);
  const selectedId = useStore((s) => s.selectedId);
  const view = useStore((s) => s.view);
  const setView = useStore((s) => s.setView);
  useEffect(() => {
    void start();
  }, [start]);

  // Nothing that talks to the core mounts before the bridge is up: a view opened during start-up would
  // otherwise call the bridge too early and miss its event subscriptions.
  if (bridgeState === 'connecting') {
    return (
      <main className="fatal" aria-busy="true">
        <p>Connecting to the Switchboard core…</p>
      </main>
    );
  }
  if (bridgeState === 'failed') {
    return (
      <main className="fatal" role="alert">
        <h1>Switchboard cannot start</h1>
        <p>{bridgeError}</p>
      </main>
    );
  }
  return (
    <div className="shell">
      <header className="topbar">
        <span className="brand">Switchboard</span>
        <nav className="views" aria-label="Views">
          {(['servers', 'catalog', 'history'] as const).map((v) => (
            <button
              key={v}
              type="button"
              className={view === v ? 'view-btn active' : 'view-btn'}
              aria-pressed={view === v}
              onClick={() => setView(v)}
            >
              {v === 'servers' ? 'Servers' : v === 'catalog' ? 'Catalog' : 'History'}
            </button>
          ))}
        </nav>
        {bridgeState === 'lost' && (
          <span role="alert" className="lost">
            Connection to the Switchboard core was lost. Reload the page.
          </span>
        )}
      </header>
      <Notices />
      <div className="body">
        {view === 'servers' && <Sidebar />}
        <main className="main">
          {view === 'catalog' ? (
            <CatalogView />
          ) : view === 'history' ? (
            <HistoryView />
          ) : !loaded ? (
            <p aria-busy="true">Loading…</p>
          ) : selectedId ? (
            <ServerPage />
          ) : count === 0 ? (
            <EmptyState />
          ) : (
            <p className="hint pad">Select a server.</p>
          )}
        </main>
      </div>
      <Dialogs />
      <ElicitationHost />
    </div>
  );
}
