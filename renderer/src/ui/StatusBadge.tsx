// A server's connection status in plain words with a colour (the colour is never the only signal).
import { Badge, Loader } from '@mantine/core';
import type { ServerSummary } from '../../../shared/contract';

type StatusInput = Pick<ServerSummary, 'status' | 'needsApproval' | 'enabled'>;

const LABELS: Record<string, string> = {
  disconnected: 'Disconnected',
  connecting: 'Connecting…',
  connected: 'Connected',
  failed: 'Failed',
  'needs-auth': 'Needs sign-in',
};

const COLORS: Record<string, string> = {
  disconnected: 'gray',
  connecting: 'blue',
  connected: 'green',
  failed: 'red',
  'needs-auth': 'orange',
  approval: 'yellow',
  disabled: 'gray',
};

/** The status's tone: a connection state, or 'approval' / 'disabled' for a server that is not trying. */
export function statusTone(s: StatusInput): string {
  if (s.needsApproval && s.status.state === 'disconnected') return 'approval';
  if (!s.enabled && s.status.state === 'disconnected') return 'disabled';
  return s.status.state;
}

/** Plain-words status of a server, including the approval gate. */
export function statusText(s: StatusInput): string {
  const tone = statusTone(s);
  if (tone === 'approval') return 'Needs approval';
  if (tone === 'disabled') return 'Disabled';
  return LABELS[s.status.state] ?? s.status.state;
}

/**
 * A coloured badge with the status in words. While connecting, a spinner takes the dot's place: Mantine lays the dot
 * out as a grid item, so a dot and a left section together pushed the words onto a second, clipped row.
 */
export function StatusBadge({ server, size = 'sm' }: { server: StatusInput; size?: 'xs' | 'sm' | 'md' }) {
  const tone = statusTone(server);
  return (
    <Badge
      variant="dot"
      color={COLORS[tone] ?? 'gray'}
      size={size}
      radius="sm"
      tt="none"
      fw={500}
      leftSection={tone === 'connecting' ? <Loader size={10} color="var(--mantine-color-blue-light-color)" aria-hidden /> : undefined}
      data-status={tone}
      className="sb-status"
    >
      {statusText(server)}
    </Badge>
  );
}
