import { useStore } from '../store';
import { selectSelectedLogs } from '../store/servers-slice';

/** Recent stderr and protocol events of the selected server. */
export function LogView() {
  const logs = useStore(selectSelectedLogs);
  return (
    <section aria-label="Server log">
      <h3>Log</h3>
      <div className="log" role="log" aria-label="Log lines">
        {logs.length === 0 && <div className="hint">Nothing logged yet.</div>}
        {logs.slice(-500).map((l) => (
          <div key={l.seq} className={`log-line log-${l.level}`}>
            <span className="log-time">{new Date(l.time).toLocaleTimeString()}</span> <span className="log-source">{l.source}</span>{' '}
            {l.text}
          </div>
        ))}
      </div>
    </section>
  );
}
