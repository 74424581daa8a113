import { useStore } from '../store';

/** First-run explanation of how to add a first server. */
export function EmptyState() {
  const openDialog = useStore((s) => s.openDialog);
  const offerDemo = useStore((s) => s.info?.offerDemo ?? false);
  const addDemo = useStore((s) => s.addDemo);
  return (
    <section className="empty" aria-labelledby="empty-title">
      <h1 id="empty-title">No servers yet</h1>
      <p>
        Switchboard connects to Model Context Protocol servers: local programs started over stdio, or remote endpoints over Streamable HTTP
        or legacy SSE. Add one by hand, or import the servers you already configured in Claude Desktop, VS Code or Cursor.
      </p>
      <div className="row">
        <button type="button" onClick={() => openDialog({ kind: 'addServer' })}>
          Add your first server
        </button>
        <button type="button" className="secondary" onClick={() => openDialog({ kind: 'import' })}>
          Import from another app
        </button>
        {offerDemo && (
          <button type="button" className="secondary" onClick={() => void addDemo()}>
            Try the demo server
          </button>
        )}
      </div>
    </section>
  );
}
