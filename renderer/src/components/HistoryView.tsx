// Call history: search, replay (fills the tool's form), save under a name, export as JSON, clear.
// Also the place to call any tool by its local name.
import { useEffect, useState } from 'react';
import type { HistoryEntry } from '../../../shared/domains/calls';
import { AppError } from '../../../shared/errors';
import { saveFile } from '../lib/save-file';
import { callsService } from '../services/calls';
import { useStore } from '../store';
import { PresentationView } from './ResultView';
import { ToolCallPanel, type CallableTool } from './ToolCallPanel';

/** Loads a tool's schema from the catalog; falls back to a raw-JSON-only form. */
function useTool(name: string | null, attempt: number): { tool: CallableTool | null; error: string | null } {
  const [state, setState] = useState<{ tool: CallableTool | null; error: string | null }>({ tool: null, error: null });
  useEffect(() => {
    if (!name) return setState({ tool: null, error: null });
    let live = true;
    callsService.toolDetail(name).then(
      (d) => live && setState({ tool: { name: d.name, inputSchema: d.inputSchema, hasApp: d.hasApp === true }, error: null }),
      (err: unknown) =>
        live &&
        setState({
          tool: { name, inputSchema: { type: 'object' } },
          error: `The tool's schema could not be loaded (${err instanceof AppError ? err.message : 'unknown error'}); edit the arguments as JSON.`,
        }),
    );
    return () => {
      live = false;
    };
  }, [name, attempt]);
  return state;
}

function Row({ entry, onReplay }: { entry: HistoryEntry; onReplay: () => void }) {
  const saveCall = useStore((s) => s.saveCall);
  const [open, setOpen] = useState(false);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  return (
    <li className="history-row" aria-label={`Call ${entry.tool}`}>
      <div className="row">
        <strong>{entry.savedAs ?? entry.tool}</strong>
        {entry.savedAs && <span className="badge">{entry.tool}</span>}
        <span className="badge">{entry.status}</span>
        {entry.origin?.kind === 'app' && (
          <span className="badge" data-testid="from-app" title={`Called by the app of ${entry.origin.tool}`}>
            from app
          </span>
        )}
        <span className="hint">
          {new Date(entry.startedAt).toLocaleString()} · {entry.durationMs} ms · {entry.serverId}
        </span>
        <button type="button" onClick={onReplay}>
          Replay
        </button>
        <button type="button" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
          {open ? 'Hide' : 'Show'}
        </button>
        <button type="button" onClick={() => setNaming(true)}>
          Save
        </button>
      </div>
      {naming && (
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            if (name.trim()) void saveCall(entry.callId, name.trim()).then(() => setNaming(false));
          }}
        >
          <input aria-label="Saved call name" value={name} onChange={(e) => setName(e.target.value)} maxLength={200} />
          <button type="submit">Save call</button>
        </form>
      )}
      {open && (
        <div>
          <pre className="instructions">{JSON.stringify(entry.arguments, null, 2)}</pre>
          {entry.error && <p className="error-text">{entry.error.message}</p>}
          <PresentationView p={entry.presentation} />
        </div>
      )}
    </li>
  );
}

/** The history page. */
export function HistoryView() {
  const history = useStore((s) => s.history);
  const loadHistory = useStore((s) => s.loadHistory);
  const clearHistory = useStore((s) => s.clearHistory);
  const replay = useStore((s) => s.replay);
  const startReplay = useStore((s) => s.startReplay);
  const [query, setQuery] = useState(history.query);
  const [toolName, setToolName] = useState('');
  const [direct, setDirect] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const active = replay?.tool ?? direct;
  const { tool, error } = useTool(active, attempt);

  useEffect(() => {
    void loadHistory();
  }, [loadHistory]);

  return (
    <section className="page pad" aria-label="Call history">
      <h1>Call history</h1>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          useStore.getState().clearReplay();
          setDirect(toolName.trim() || null);
          setAttempt((a) => a + 1);
        }}
      >
        <input aria-label="Tool name" placeholder="mcp__server__tool" value={toolName} onChange={(e) => setToolName(e.target.value)} />
        <button type="submit">Open tool</button>
      </form>
      {tool && (
        <div className="identity">
          <h2>{tool.name}</h2>
          {error && <p className="hint">{error}</p>}
          <ToolCallPanel tool={tool} {...(replay ? { initialArgs: replay.arguments, formKey: replay.nonce } : {})} />
        </div>
      )}
      <form
        className="row actions"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          void loadHistory({ query });
        }}
      >
        <input
          aria-label="Search history"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder="Search tool, server, arguments, text"
        />
        <button type="submit">Search</button>
        <label className="check">
          <input type="checkbox" checked={history.savedOnly} onChange={(e) => void loadHistory({ savedOnly: e.target.checked })} />
          Saved only
        </label>
        <button type="button" onClick={() => void callsService.exportHistory().then((x) => saveFile(x.fileName, x.text))}>
          Export JSON
        </button>
        <button type="button" onClick={() => void clearHistory(false)}>
          Clear history
        </button>
      </form>
      {history.error && <p className="error-text">{history.error}</p>}
      <p className="hint">
        {history.total} call{history.total === 1 ? '' : 's'}
      </p>
      <ul className="server-list" aria-label="History entries">
        {history.entries.map((e) => (
          <Row key={e.callId} entry={e} onReplay={() => (setDirect(null), startReplay(e))} />
        ))}
      </ul>
    </section>
  );
}
