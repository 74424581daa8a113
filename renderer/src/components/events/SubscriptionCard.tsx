// One subscription: its event type and server, delivery mode, live status (polling every N s, streaming, retrying
// in N s with the reason, ended with the reason), when its position last advanced, and pause / resume / remove.
import { Anchor, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconPlayerPause, IconPlayerPlay, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import type { SubscriptionView } from '../../../../shared/domains/events';
import { formatRoute, routes } from '../../router/route';
import { useStore } from '../../store';
import { countLabel } from '../../ui/count';
import { duration, stateColor, statusLine, throttleLabel, visible } from './feed-logic';
import { useNow } from './use-now';

const MODE_LABEL = { poll: 'Poll', push: 'Push', webhook: 'Webhook' } as const;

/** A subscription's card; `onShowInFeed` filters the feed to it (Events view only). */
export function SubscriptionCard({ sub, onShowInFeed }: { sub: SubscriptionView; onShowInFeed?: () => void }) {
  const now = useNow(1000);
  const pause = useStore((s) => s.pauseSubscription);
  const resume = useStore((s) => s.resumeSubscription);
  const remove = useStore((s) => s.removeSubscription);
  const relayName = useStore((s) =>
    sub.relayServerId === undefined ? '' : visible(s.serversById[sub.relayServerId]?.name ?? sub.relayServerId),
  );
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const st = sub.status;
  const act = (fn: () => Promise<void>) => () => {
    setBusy(true);
    void fn().finally(() => setBusy(false));
  };
  const args = Object.keys(sub.arguments).length > 0 ? visible(JSON.stringify(sub.arguments)) : undefined;
  const stopped = st.state === 'paused' || st.state === 'ended';
  return (
    <Paper withBorder p="sm" radius="sm" data-testid="subscription-card" aria-label={`Subscription to ${sub.name} on ${sub.serverId}`}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text fw={600} truncate="end" title={sub.name}>
              {visible(sub.name)}
            </Text>
            <Text size="xs" className="sb-muted" truncate="end">
              <Anchor href={formatRoute(routes.servers(sub.serverId, 'events'))} size="xs" underline="always">
                {sub.serverId}
              </Anchor>
              {' · '}
              {MODE_LABEL[sub.mode]}
              {args ? ` · ${args}` : ''}
            </Text>
          </Stack>
          <Badge color={stateColor(st.state)} variant="light" data-testid="subscription-state" style={{ flex: 'none' }}>
            {st.state}
          </Badge>
        </Group>
        <Text size="sm" data-testid="subscription-status" style={{ overflowWrap: 'anywhere' }}>
          {statusLine(sub, now)}
        </Text>
        <Text size="xs" className="sb-muted">
          {countLabel(st.received, 'event')} received
          {st.lastCursorAt !== undefined ? ` · position advanced ${duration(now - st.lastCursorAt)} ago` : ' · no position yet'}
          {st.deliveryError ? ` · last delivery problem: ${st.deliveryError}` : ''}
          {st.relayError ? ` · the relay cannot be read: ${visible(st.relayError)}` : ''}
          {st.throttled ? ` · ${throttleLabel(st.throttledUntil, now)}` : ''}
        </Text>
        {sub.webhookUrl && (
          <Text size="xs" className="sb-muted" style={{ overflowWrap: 'anywhere' }}>
            Delivers to {visible(sub.webhookUrl)}
            {sub.relayServerId !== undefined ? ` through the relay ${relayName}` : ''}
          </Text>
        )}
        <Group gap="xs">
          {stopped ? (
            <Button size="xs" leftSection={<IconPlayerPlay size={14} aria-hidden />} onClick={act(() => resume(sub.id))} disabled={busy}>
              Resume
            </Button>
          ) : (
            <Button size="xs" leftSection={<IconPlayerPause size={14} aria-hidden />} onClick={act(() => pause(sub.id))} disabled={busy}>
              Pause
            </Button>
          )}
          {st.signIn && (
            <Button size="xs" component="a" href={formatRoute(routes.servers(sub.serverId, 'auth'))} variant="light">
              Sign in
            </Button>
          )}
          {onShowInFeed && (
            <Button size="xs" variant="subtle" onClick={onShowInFeed}>
              Show in feed
            </Button>
          )}
          {confirming ? (
            <Group gap={4}>
              <Button size="xs" color="red" variant="filled" onClick={act(() => remove(sub.id))} disabled={busy}>
                Remove subscription
              </Button>
              <Button size="xs" variant="subtle" onClick={() => setConfirming(false)}>
                Keep
              </Button>
            </Group>
          ) : (
            <Button
              size="xs"
              variant="subtle"
              color="red"
              leftSection={<IconTrash size={14} aria-hidden />}
              onClick={() => setConfirming(true)}
            >
              Remove
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
