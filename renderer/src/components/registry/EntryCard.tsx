// One registry entry in the browser: title, name, version, status, description, which of its packages and remotes
// can run here (and why not), its repository and website (opened by the core's safe opener in the app), and install.
import { Anchor, Badge, Button, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconExternalLink, IconX } from '@tabler/icons-react';
import type { MouseEvent } from 'react';
import type { InstallOption, RegistryEntry } from '../../../../shared/domains/registry';
import { escapeUnsafe } from '../../../../shared/domains/catalog-text';
import { useStore } from '../../store';
import { StatusBadge, statusDay } from './StatusBadge';

function OptionLine({ option, deprecated }: { option: InstallOption; deprecated: boolean }) {
  // A deprecated entry never gets the green "good to go" check, even where it would run.
  return (
    <List.Item
      icon={
        option.runnable && deprecated ? (
          <IconAlertTriangle size={16} color="var(--mantine-color-yellow-7)" aria-label="Can run here, but deprecated" />
        ) : option.runnable ? (
          <IconCheck size={16} color="var(--mantine-color-green-7)" aria-label="Can run here" />
        ) : (
          <IconX size={16} color="var(--mantine-color-red-7)" aria-label="Cannot run here" />
        )
      }
    >
      <Text fz="sm" span>
        {escapeUnsafe(option.label)}
      </Text>
      {option.reason !== undefined && (
        <Text fz="xs" c="dimmed" span>
          {' '}
          — {escapeUnsafe(option.reason)}
        </Text>
      )}
    </List.Item>
  );
}

/** A link to an entry's page: followed by the browser in headless mode, opened by the core's safe opener in the app. */
function EntryLink({ href, children }: { href: string; children: string }) {
  const mode = useStore((s) => s.info?.mode);
  const openRegistryLink = useStore((s) => s.openRegistryLink);
  const onClick = (e: MouseEvent) => {
    if (mode !== 'electron') return;
    e.preventDefault();
    void openRegistryLink(href);
  };
  return (
    <Anchor href={href} target="_blank" rel="noopener noreferrer" fz="sm" onClick={onClick}>
      <Group gap={4} wrap="nowrap" component="span">
        {children}
        <IconExternalLink size={14} aria-hidden />
      </Group>
    </Anchor>
  );
}

/** One entry of the browser. */
export function EntryCard({ entry, sourceLabel }: { entry: RegistryEntry; sourceLabel?: string }) {
  const openDialog = useStore((s) => s.openDialog);
  const headingId = `entry-${entry.name.replace(/[^a-zA-Z0-9_-]/g, '-')}`;
  const title = escapeUnsafe(entry.title ?? entry.name.split('/').pop() ?? entry.name);
  const installable = entry.options.some((o) => o.installable);
  const cannot =
    entry.status === 'deleted'
      ? 'This entry was deleted from the registry'
      : !installable
        ? 'None of its packages or remotes can be installed'
        : undefined;
  return (
    <Card withBorder padding="md" component="article" aria-labelledby={headingId} data-entry={entry.name}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="md">
        <Stack gap={6} miw={0} style={{ flex: 1 }}>
          <Group gap="xs" wrap="wrap">
            <Title order={2} fz="md" id={headingId}>
              {title}
            </Title>
            <Badge variant="default" tt="none">
              v{escapeUnsafe(entry.version)}
            </Badge>
            <StatusBadge
              status={entry.status}
              {...(entry.statusMessage !== undefined ? { message: entry.statusMessage } : {})}
              {...(entry.statusChangedAt !== undefined ? { changedAt: entry.statusChangedAt } : {})}
            />
            {entry.installed?.map((i) => (
              <Badge key={i.id} color={i.updateAvailable ? 'orange' : 'blue'} variant="light" tt="none">
                {i.updateAvailable ? `Installed as ${i.id} (v${escapeUnsafe(i.version)}), update available` : `Installed as ${i.id}`}
              </Badge>
            ))}
          </Group>
          <Text ff="monospace" fz="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {escapeUnsafe(entry.name)}
          </Text>
          {sourceLabel !== undefined && (
            <Text fz="xs" c="dimmed" data-entry-source={entry.source}>
              From {escapeUnsafe(sourceLabel)}
            </Text>
          )}
          {entry.description && (
            <Text fz="sm" lineClamp={3}>
              {escapeUnsafe(entry.description)}
            </Text>
          )}
          {entry.status !== 'active' && (
            <Text
              fz="sm"
              // The scheme-aware text colours (raised to AA in both schemes); a fixed shade (yellow.9, 2.99:1 on white) failed.
              c={entry.status === 'deleted' ? 'var(--mantine-color-red-light-color)' : 'var(--mantine-color-yellow-light-color)'}
              data-status-message
            >
              {entry.status === 'deleted' ? 'Deleted from the registry' : 'Deprecated'}
              {statusDay(entry.statusChangedAt) !== undefined ? ` on ${statusDay(entry.statusChangedAt)}` : ''}
              {entry.statusMessage ? `: ${escapeUnsafe(entry.statusMessage)}` : ''}
            </Text>
          )}
          {entry.options.length > 0 ? (
            <List spacing={2} size="sm" center aria-label="Packages and remotes">
              {entry.options.map((o) => (
                <OptionLine key={o.index} option={o} deprecated={entry.status !== 'active'} />
              ))}
            </List>
          ) : (
            <Text fz="sm" c="dimmed">
              No packages or remotes listed
            </Text>
          )}
          {(entry.repositoryUrl || entry.websiteUrl) && (
            <Group gap="md">
              {entry.repositoryUrl && <EntryLink href={entry.repositoryUrl}>Repository</EntryLink>}
              {entry.websiteUrl && <EntryLink href={entry.websiteUrl}>Website</EntryLink>}
            </Group>
          )}
        </Stack>
        <Stack gap={4} align="flex-end">
          <Button
            variant="filled"
            disabled={cannot !== undefined}
            title={cannot}
            aria-label={`Install ${title}`}
            onClick={() => openDialog({ kind: 'install', target: { name: entry.name, source: entry.source }, title })}
          >
            Install
          </Button>
          {cannot !== undefined && (
            <Text fz="xs" c="dimmed" maw={160} ta="right">
              {cannot}
            </Text>
          )}
        </Stack>
      </Group>
    </Card>
  );
}
