import type { GroupCard } from '../../../shared/domains/catalog';
import { formatRoute, routes } from '../router/route';
import { countLabel } from '../ui/count';

/** The capability groups directory: one card per server (title, description, member count, event types, instructions). */
export function GroupsDirectory({ groups, onPick }: { groups: GroupCard[]; onPick: (serverId: string) => void }) {
  if (groups.length === 0) return <p className="hint">No server has published tools yet. Connect a server to see its tools here.</p>;
  return (
    <div className="groups" role="list" aria-label="Capability groups">
      {groups.map((g) => (
        <div key={g.id} role="listitem" className="group-card" aria-label={g.title}>
          <h3>{g.title}</h3>
          <p>{g.description}</p>
          <div className="row">
            <span className="badge mono">{g.id}</span>
            <span data-testid={`group-count-${g.serverId}`}>
              {g.memberCount} callable{g.toolCount !== g.memberCount ? ` of ${g.toolCount}` : ''}
            </span>
            <button type="button" className="link" onClick={() => onPick(g.serverId)}>
              Show tools
            </button>
            {g.eventTypeCount !== undefined && (
              <a
                href={formatRoute(routes.servers(g.serverId, 'events'))}
                data-testid={`group-events-${g.serverId}`}
                title={`Event types: ${(g.eventTypes ?? []).join(', ')}${g.eventTypeCount > (g.eventTypes?.length ?? 0) ? ', …' : ''}`}
              >
                {countLabel(g.eventTypeCount, 'event type')}
              </a>
            )}
          </div>
          {g.stale && (
            <p className="stale-note" role="status">
              Stale: {g.stale.reason}
            </p>
          )}
          {g.instructions && (
            <details>
              <summary>Instructions from the server (untrusted)</summary>
              <pre>{g.instructions}</pre>
            </details>
          )}
        </div>
      ))}
    </div>
  );
}
