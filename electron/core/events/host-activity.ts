// The host's own activity as feed entries of the second kind: a server connected, disconnected, failed or needs
// sign-in (from status changes), and its tools, resources or prompts changed or a subscribed resource was updated
// (from session events).
import type { ServerStatus } from '../../../shared/contract.js';
import type { HostActivity } from '../../../shared/domains/events.js';
import type { EventBus } from '../event-bus.js';
import type { SessionEvents } from '../sessions/session-events.js';
import { label } from './payload.js';

/** Where activity entries go. */
export type ActivitySink = (serverId: string, activity: HostActivity, message: string, uri?: string) => void;

/** The parts of the Host the recorder follows. */
export interface ActivitySources {
  readonly events: EventBus;
  readonly sessionEvents: SessionEvents;
}

/** The activity a status change means, if any. */
export function statusActivity(previous: ServerStatus['state'] | undefined, next: ServerStatus): [HostActivity, string] | undefined {
  if (next.state === previous) return undefined;
  const why = next.error ? `: ${label(next.error.message, 300)}` : '';
  switch (next.state) {
    case 'connected':
      return ['connected', `Connected${next.protocolVersion ? ` (${label(next.protocolVersion, 20)})` : ''}`];
    case 'failed':
      return ['failed', `Connection failed${why}`];
    case 'needs-auth':
      return ['needs-sign-in', `Needs sign-in${why}`];
    case 'disconnected':
      return previous === 'connected' ? ['disconnected', `Disconnected${why}`] : undefined;
    default:
      return undefined;
  }
}

/** Records host activity into `sink` until the returned function is called. */
export function recordHostActivity(sources: ActivitySources, sink: ActivitySink): () => void {
  const states = new Map<string, ServerStatus['state']>();
  const offStatus = sources.events.subscribe(
    (event, payload) => {
      if (event !== 'servers.status') return;
      const { id, status } = payload as { id: string; status: ServerStatus };
      const activity = statusActivity(states.get(id), status);
      states.set(id, status.state);
      if (activity) sink(id, activity[0], activity[1]);
    },
    { internal: true },
  );
  const offSession = sources.sessionEvents.subscribe((event) => {
    switch (event.type) {
      case 'toolsListChanged':
        sink(event.id, 'tools-changed', 'The tool list changed');
        break;
      case 'resourcesListChanged':
        sink(event.id, 'resources-changed', 'The resource list changed');
        break;
      case 'promptsListChanged':
        sink(event.id, 'prompts-changed', 'The prompt list changed');
        break;
      case 'resourceUpdated':
        sink(event.id, 'resource-updated', `Resource updated: ${label(event.uri, 300)}`, event.uri);
        break;
      case 'removed':
        states.delete(event.id);
        break;
      default:
        break;
    }
  });
  return () => {
    offStatus();
    offSession();
  };
}
