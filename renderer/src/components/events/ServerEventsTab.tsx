// A server's Events tab: the event types it offers (description, delivery modes), a subscribe form generated from
// the chosen type's inputSchema (the same form component as tool calls) with a delivery mode among those both sides
// support, and this server's subscriptions with their status.
import './events.css';
import { Alert, Anchor, Badge, Button, Group, Paper, SegmentedControl, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconBell, IconRefresh } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import type { EventDeliveryMode, EventTypeView } from '../../../../shared/domains/events';
import { AppError } from '../../../../shared/errors';
import { formatRoute } from '../../router/route';
import { useStore } from '../../store';
import { countLabel } from '../../ui/count';
import { SchemaForm } from '../tools/SchemaForm';
import { visible } from './feed-logic';
import { SubscriptionCard } from './SubscriptionCard';

const MODE_LABEL: Record<EventDeliveryMode, string> = { poll: 'Poll', push: 'Push', webhook: 'Webhook' };
const MODE_HINT: Record<EventDeliveryMode, string> = {
  poll: 'Switchboard asks the server for new events at the interval the server suggests (at least every second).',
  push: 'Switchboard keeps a stream open and the server sends events as they happen.',
  webhook:
    'The server POSTs each event to a URL it can reach. A server on the internet cannot reach this computer (a laptop has no public address), and Switchboard opens no listener for webhooks, so the events come through a relay: an MCP server you added that receives the POSTs and hands them to Switchboard, which checks each signature before storing it. Or choose poll or push instead.',
};

/** Where webhook deliveries go: a relay server Switchboard reads from, or a URL the person runs themselves. */
type WebhookTarget = 'relay' | 'url';
const RELAY_HINT =
  'The relay gives the callback URL and passes each delivery to Switchboard. It can be hosted anywhere the server reaches, or run on this computer behind a tunnel you run (for example cloudflared or ssh -R) that points at it. A relay server offers the tools webhook_relay_endpoint, webhook_relay_take and webhook_relay_answer.';
const URL_HINT =
  'The server delivers to this URL and Switchboard keeps the registration refreshed, but only events a relay server hands over reach this feed: use this when something else of yours consumes the deliveries.';

/** The subscribe form for one event type. */
function SubscribeForm({ serverId, type, onDone }: { serverId: string; type: EventTypeView; onDone: () => void }) {
  const subscribe = useStore((s) => s.subscribeEvent);
  const serversById = useStore((s) => s.serversById);
  const serverIds = useStore((s) => s.serverIds);
  const [mode, setMode] = useState<EventDeliveryMode>(type.delivery.includes('push') ? 'push' : (type.delivery[0] ?? 'poll'));
  const [target, setTarget] = useState<WebhookTarget>('relay');
  const [relay, setRelay] = useState<string | null>(null);
  const [url, setUrl] = useState('');
  const relayChoices = serverIds.filter((id) => id !== serverId).map((id) => ({ value: id, label: serversById[id]?.name ?? id }));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = (args: Record<string, unknown>): void => {
    if (mode === 'webhook' && target === 'relay' && relay === null) {
      setError('Choose the relay server that receives the deliveries.');
      return;
    }
    if (mode === 'webhook' && target === 'url' && url.trim() === '') {
      setError('Enter the callback URL the server should deliver to.');
      return;
    }
    setBusy(true);
    setError(null);
    const delivery = mode !== 'webhook' ? {} : target === 'relay' && relay !== null ? { relayServerId: relay } : { webhookUrl: url.trim() };
    subscribe({ id: serverId, name: type.name, arguments: args, mode, ...delivery })
      .then(onDone, (err: unknown) => setError(err instanceof AppError ? err.message : 'The subscription could not be made'))
      .finally(() => setBusy(false));
  };
  return (
    <Stack gap="sm" data-testid="subscribe-form">
      <Stack gap={4}>
        <Text size="sm" fw={500} id={`mode-${type.name}`}>
          Delivery
        </Text>
        <SegmentedControl
          aria-labelledby={`mode-${type.name}`}
          value={mode}
          onChange={(v) => setMode(v as EventDeliveryMode)}
          data={type.delivery.map((m) => ({ value: m, label: MODE_LABEL[m] }))}
          w="fit-content"
        />
        <Text size="xs" className="sb-muted">
          {MODE_HINT[mode]}
        </Text>
      </Stack>
      {mode === 'webhook' && (
        <Stack gap="xs" data-testid="webhook-target">
          <Text size="sm" fw={500} id={`target-${type.name}`}>
            Deliveries go to
          </Text>
          <SegmentedControl
            aria-labelledby={`target-${type.name}`}
            value={target}
            onChange={(v) => setTarget(v as WebhookTarget)}
            data={[
              { value: 'relay', label: 'A relay server' },
              { value: 'url', label: 'A URL of my own' },
            ]}
            w="fit-content"
          />
          {target === 'relay' ? (
            <Select
              label="Relay server"
              description={RELAY_HINT}
              placeholder={relayChoices.length === 0 ? 'Add a relay server first' : 'Choose a server'}
              data={relayChoices}
              value={relay}
              onChange={setRelay}
              disabled={relayChoices.length === 0}
              allowDeselect={false}
              required
            />
          ) : (
            <TextInput
              label="Callback URL"
              description={`${URL_HINT} https, reachable from the server (plain http only for this machine).`}
              placeholder="https://hooks.example.com/switchboard"
              value={url}
              onChange={(e) => setUrl(e.currentTarget.value)}
              required
            />
          )}
        </Stack>
      )}
      <Text size="sm" fw={500}>
        Arguments
      </Text>
      <SchemaForm
        inputSchema={type.inputSchema}
        busy={busy}
        onCall={submit}
        submitLabel="Subscribe"
        emptyNote="This event type takes no arguments."
      />
      {error && (
        <Alert color="red" role="alert" data-testid="subscribe-error">
          {error}
        </Alert>
      )}
    </Stack>
  );
}

/** One event type: name, description, delivery modes, and its subscribe form when opened. */
function TypeCard({ serverId, type, open, onToggle }: { serverId: string; type: EventTypeView; open: boolean; onToggle: () => void }) {
  return (
    <Paper withBorder p="sm" data-testid="event-type" aria-label={`Event type ${type.name}`}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text fw={600} ff="monospace" style={{ overflowWrap: 'anywhere' }}>
              {visible(type.name)}
            </Text>
            <Text
              size="sm"
              className={type.description ? undefined : 'sb-muted'}
              style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}
            >
              {type.description ? visible(type.description) : 'No description.'}
            </Text>
            <Group gap={4}>
              {type.delivery.map((m) => (
                <Badge key={m} size="xs" variant="light">
                  {MODE_LABEL[m]}
                </Badge>
              ))}
            </Group>
          </Stack>
          <Button size="xs" variant={open ? 'subtle' : 'default'} onClick={onToggle} aria-expanded={open} style={{ flex: 'none' }}>
            {open ? 'Close' : 'Subscribe…'}
          </Button>
        </Group>
        {open && <SubscribeForm serverId={serverId} type={type} onDone={onToggle} />}
      </Stack>
    </Paper>
  );
}

/** The Events tab of a server page. */
export function ServerEventsTab({ serverId }: { serverId: string }) {
  const state = useStore((s) => s.eventTypes[serverId]);
  const load = useStore((s) => s.loadEventTypes);
  const loadSubscriptions = useStore((s) => s.loadSubscriptions);
  const all = useStore((s) => s.subscriptions);
  const subscriptionError = useStore((s) => s.subscriptionError);
  const subs = useMemo(() => all.filter((s) => s.serverId === serverId), [all, serverId]);
  const [open, setOpen] = useState<string | null>(null);
  useEffect(() => {
    // The tab shows the list it has; the Events view reports a failed load.
    void loadSubscriptions().catch(() => undefined);
    void load(serverId);
  }, [serverId, load, loadSubscriptions]);

  const result = state?.result;
  const feedLink = formatRoute({ view: 'events', segments: [], query: { server: serverId } });
  return (
    <Stack gap="md" aria-label="Events" data-testid="events-tab">
      <Group justify="space-between" wrap="wrap">
        <Title order={2} size="h4">
          Event types
        </Title>
        <Group gap="xs">
          <Button
            size="xs"
            leftSection={<IconRefresh size={14} aria-hidden />}
            onClick={() => void load(serverId, true)}
            loading={state?.loading === true}
          >
            List again
          </Button>
          <Button size="xs" component="a" href={feedLink} leftSection={<IconBell size={14} aria-hidden />}>
            Open this server’s feed
          </Button>
        </Group>
      </Group>
      {state?.loading && !result && <Text className="sb-muted">Listing event types…</Text>}
      {state?.error && (
        <Alert color="red" role="alert" title="The event types could not be listed">
          {state.error}
        </Alert>
      )}
      {result && !result.supported && (
        <Text className="sb-muted" data-testid="no-events">
          This server offers no events.
        </Text>
      )}
      {result && result.notices.length > 0 && (
        <Alert color="yellow" title="Some event types were left out" role="note">
          <Stack gap={2}>
            {result.notices.map((n) => (
              <Text key={n} size="sm" style={{ overflowWrap: 'anywhere' }}>
                {visible(n)}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}
      {result?.supported && (
        <>
          <Text size="sm" className="sb-muted">
            {countLabel(result.types.length, 'event type')} offered. Event data comes from the server and is shown as text; receiving an
            event never makes Switchboard act.
          </Text>
          <Stack gap="xs">
            {result.types.map((t) => (
              <TypeCard
                key={t.name}
                serverId={serverId}
                type={t}
                open={open === t.name}
                onToggle={() => setOpen(open === t.name ? null : t.name)}
              />
            ))}
          </Stack>
        </>
      )}
      <Title order={2} size="h4">
        Subscriptions on this server
      </Title>
      {subscriptionError && (
        <Alert color="red" role="alert">
          {subscriptionError}
        </Alert>
      )}
      {subs.length === 0 ? (
        <Text size="sm" className="sb-muted">
          None yet.
        </Text>
      ) : (
        <Stack gap="xs">
          {subs.map((s) => (
            <SubscriptionCard key={s.id} sub={s} />
          ))}
        </Stack>
      )}
      <Text size="sm">
        <Anchor href={feedLink} underline="always">
          See these events in the feed
        </Anchor>
      </Text>
    </Stack>
  );
}
