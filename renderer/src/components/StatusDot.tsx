import type { ServerSummary } from '../../../shared/contract';

const LABELS: Record<string, string> = {
  disconnected: 'Disconnected',
  connecting: 'Connecting…',
  connected: 'Connected',
  failed: 'Failed',
  'needs-auth': 'Needs sign-in',
};

/** Plain-words status of a server, including the approval gate. */
export function statusText(s: Pick<ServerSummary, 'status' | 'needsApproval' | 'enabled'>): string {
  if (s.needsApproval && s.status.state === 'disconnected') return 'Needs approval';
  if (!s.enabled && s.status.state === 'disconnected') return 'Disabled';
  return LABELS[s.status.state] ?? s.status.state;
}

/** A coloured dot plus the status text. */
export function StatusDot(props: { server: Pick<ServerSummary, 'status' | 'needsApproval' | 'enabled'> }) {
  const text = statusText(props.server);
  const tone = props.server.needsApproval && props.server.status.state === 'disconnected' ? 'approval' : props.server.status.state;
  return (
    <span className="status">
      <span className={`dot dot-${tone}`} aria-hidden="true" />
      <span className="status-text">{text}</span>
    </span>
  );
}
