import { useEffect } from 'react';
import { useStore } from '../store';
import { selectDialog } from '../store/ui-slice';
import { EmptyState } from './EmptyState';
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
  useEffect(() => {
    void start();
  }, [start]);

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
        {bridgeState === 'lost' && (
          <span role="alert" className="lost">
            Connection to the Switchboard core was lost. Reload the page.
          </span>
        )}
      </header>
      <Notices />
      <div className="body">
        <Sidebar />
        <main className="main">{!loaded ? <p aria-busy="true">Loading…</p> : selectedId ? <ServerPage /> : count === 0 ? <EmptyState /> : <p className="hint pad">Select a server.</p>}</main>
      </div>
      <Dialogs />
    </div>
  );
}
