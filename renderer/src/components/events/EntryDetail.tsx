// One feed entry opened: where it came from, its ids and times, and its payload as text (never markup) with a copy
// button. Payloads are untrusted server data: the core sent them as bounded JSON text with control and bidi
// characters escaped; they are shown exactly so.
import { Alert, Button, CopyButton, Drawer, Group, Stack, Table, Text } from '@mantine/core';
import { IconCheck, IconCopy, IconInfoCircle } from '@tabler/icons-react';
import type { FeedEntry, SubscriptionView } from '../../../../shared/domains/events';
import { formatRoute, routes } from '../../router/route';
import { visible } from './feed-logic';
import { formatSize } from '../../../../shared/format-size';

const KIND_TITLE = { event: 'Event', gap: 'Gap in the events', error: 'Delivery error', activity: 'Host activity' } as const;

/** The drawer showing one entry; closed when `entry` is null. */
export function EntryDetail({
  entry,
  subscription,
  onClose,
}: {
  entry: FeedEntry | null;
  subscription?: SubscriptionView;
  onClose: () => void;
}) {
  const rows: [string, string][] = [];
  if (entry) {
    rows.push(['Server', entry.serverId || 'Switchboard']);
    if (entry.name !== undefined) rows.push(['Event type', visible(entry.name)]);
    if (entry.subscriptionId !== undefined)
      rows.push([
        'Subscription',
        subscription
          ? `${visible(subscription.name)} by ${subscription.mode} (${subscription.id.slice(0, 8)})`
          : `${entry.subscriptionId.slice(0, 8)} (removed)`,
      ]);
    if (entry.eventId !== undefined) rows.push(['Event id', visible(entry.eventId)]);
    if (entry.timestamp !== undefined) rows.push(['Server timestamp', visible(entry.timestamp)]);
    rows.push(['Happened', new Date(entry.time).toLocaleString()]);
    rows.push(['Received', new Date(entry.receivedAt).toLocaleString()]);
    if (entry.dataBytes !== undefined) rows.push(['Payload size', formatSize(entry.dataBytes)]);
    if (entry.uri !== undefined) rows.push(['Resource', visible(entry.uri)]);
  }
  const title = entry ? (entry.kind === 'event' ? `${KIND_TITLE.event}: ${visible(entry.name ?? '')}` : KIND_TITLE[entry.kind]) : '';
  // No scroll lock: it would inject a <style> element that the page's style nonce does not cover (CSP).
  return (
    <Drawer
      opened={entry !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={title}
      lockScroll={false}
      closeButtonProps={{ 'aria-label': 'Close the entry' }}
    >
      {entry && (
        <Stack gap="md" data-testid="entry-detail">
          <Table withRowBorders={false} verticalSpacing={4} layout="fixed">
            <Table.Tbody>
              {rows.map(([k, v]) => (
                <Table.Tr key={k}>
                  <Table.Th w={150} fw={500} className="sb-muted" fz="sm">
                    {k}
                  </Table.Th>
                  <Table.Td fz="sm" style={{ overflowWrap: 'anywhere' }}>
                    {v}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {entry.message !== undefined && (
            <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="entry-message">
              {visible(entry.message)}
            </Text>
          )}
          {entry.data !== undefined && (
            <Stack gap={6}>
              <Group justify="space-between">
                <Text fw={600} size="sm">
                  Payload (JSON, as text)
                </Text>
                <CopyButton value={entry.data}>
                  {({ copied, copy }) => (
                    <Button
                      size="xs"
                      leftSection={copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
                      onClick={copy}
                      {...(copied ? { color: 'teal' } : {})}
                    >
                      {copied ? 'Copied' : 'Copy payload'}
                    </Button>
                  )}
                </CopyButton>
              </Group>
              <Alert variant="light" color="gray" icon={<IconInfoCircle size={16} aria-hidden />} p="xs">
                <Text size="xs">
                  Data from the server, shown as text. Invisible and direction-changing characters appear as \u escapes.
                  {entry.dataTruncated ? ' It is cut here: the full payload was larger than what is shown.' : ''}
                </Text>
              </Alert>
              <pre className="sb-payload" data-testid="entry-payload" tabIndex={0} aria-label="Payload">
                {entry.data}
              </pre>
            </Stack>
          )}
          {entry.kind === 'error' && entry.subscriptionId !== undefined && (
            <Text size="xs" className="sb-muted">
              The subscription goes on unless this says it ended. See the server’s{' '}
              <a href={formatRoute(routes.servers(entry.serverId, 'events'))}>Events tab</a>.
            </Text>
          )}
        </Stack>
      )}
    </Drawer>
  );
}
