// The server page's Tools tab: a filterable virtualized list and the open tool (#/servers/<id>/tools/<name>).
import { ActionIcon, Alert, Anchor, Box, Group, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconRefresh, IconSearch } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ToolDetail, ToolSummary } from '../../../../shared/domains/catalog';
import { AppError } from '../../../../shared/errors';
import { formatRoute, routes } from '../../router/route';
import { useStore } from '../../store';
import { selectFeatures } from '../../store/protocol-slice';
import { countLabel } from '../../ui/count';
import { ToolCallSlot } from './ToolCallSlot';
import { ToolDetailPanel } from './ToolDetailPanel';
import { ToolList } from './ToolList';

const message = (e: unknown, fallback: string): string => (e instanceof AppError ? e.message : fallback);

/** Tools of one server. */
export function ToolsTab({ serverId }: { serverId: string }) {
  const revision = useStore((s) => s.catalogRevision);
  const loadCatalog = useStore((s) => s.loadCatalog);
  const fetchServerTools = useStore((s) => s.fetchServerTools);
  const fetchTool = useStore((s) => s.fetchTool);
  const approveDefinition = useStore((s) => s.approveToolDefinition);
  const refreshCatalog = useStore((s) => s.refreshCatalog);
  const refreshing = useStore((s) => s.refreshing);
  const selected = useStore((s) => (s.route.view === 'servers' && s.route.segments[1] === 'tools' ? (s.route.segments[2] ?? null) : null));
  const [query, setQuery] = useState('');
  const [tools, setTools] = useState<ToolSummary[] | null>(null);
  const [detail, setDetail] = useState<ToolDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [approving, setApproving] = useState(false);
  const features = useStore(selectFeatures(serverId));
  const loadFeatures = useStore((s) => s.loadFeatures);
  useEffect(() => {
    loadFeatures(serverId).catch(() => undefined);
  }, [serverId, loadFeatures]);
  // Servers may list tools only to clients that answer sampling, roots or questions: say where to turn those on.
  const missing = features
    ? [!features.sampling && 'sampling', !features.roots && 'roots', !features.elicitation && 'questions'].filter(
        (x): x is string => typeof x === 'string',
      )
    : [];

  useEffect(() => {
    void loadCatalog(); // subscribes to catalog.changed
  }, [loadCatalog]);
  useEffect(() => {
    let live = true;
    fetchServerTools(serverId, query).then(
      (r) => live && (setTools(r), setError(null)),
      (e: unknown) => live && setError(message(e, 'The tools could not be loaded')),
    );
    return () => {
      live = false;
    };
  }, [serverId, query, revision, fetchServerTools]);
  useEffect(() => {
    if (!selected) return setDetail(null);
    let live = true;
    fetchTool(selected).then(
      (d) => live && (setDetail(d), setError(null)),
      () => live && (setDetail(null), setError('This tool is not offered by the server (any more).')),
    );
    return () => {
      live = false;
    };
  }, [selected, revision, fetchTool]);

  const list = useMemo(() => tools ?? [], [tools]);
  const row = useCallback((i: number) => list[i], [list]);
  const hrefFor = useCallback((name: string) => formatRoute(routes.servers(serverId, 'tools', name)), [serverId]);
  const approve = (name: string, fingerprint: string): void => {
    setApproving(true);
    approveDefinition(name, fingerprint)
      .then(setDetail, (e: unknown) => setError(message(e, 'Approval failed')))
      .finally(() => setApproving(false));
  };
  return (
    <Group align="flex-start" gap="md" wrap="nowrap" aria-label="Tools" role="region">
      <Stack gap="xs" className="sb-sticky-column" style={{ flex: '0 0 clamp(220px, 34%, 360px)', minWidth: 0 }}>
        <Group gap="xs" wrap="nowrap">
          <TextInput
            aria-label="Filter tools"
            placeholder="Filter tools"
            leftSection={<IconSearch size={16} aria-hidden />}
            value={query}
            onChange={(e) => setQuery(e.currentTarget.value)}
            style={{ flex: 1 }}
            type="search"
          />
          <Tooltip label="Refresh the tool list">
            <ActionIcon
              size="lg"
              variant="default"
              aria-label="Refresh tools"
              loading={refreshing}
              onClick={() => void refreshCatalog(serverId)}
            >
              <IconRefresh size={16} aria-hidden />
            </ActionIcon>
          </Tooltip>
        </Group>
        <Text size="xs" c="dimmed" aria-live="polite" data-testid="tools-count">
          {tools === null ? 'Loading tools…' : countLabel(list.length, 'tool', 'tools', 'No tools')}
        </Text>
        {missing.length > 0 && (
          <Text size="xs" c="dimmed" data-testid="tools-features-hint">
            Some servers offer more tools to clients that answer {missing.join(', ')}.{' '}
            <Anchor href={formatRoute(routes.servers(serverId, 'features'))} size="xs" underline="always">
              Client features
            </Anchor>
          </Text>
        )}
        <Box style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-sm)' }}>
          <ToolList
            total={list.length}
            row={row}
            selected={selected}
            hrefFor={hrefFor}
            dataKey={`${serverId}|${query}|${revision}`}
            label="Server tools"
            height="min(560px, calc(100dvh - 190px))"
          />
        </Box>
      </Stack>
      <Box style={{ flex: 1, minWidth: 0 }}>
        {error && (
          <Alert color="red" variant="light" p="sm" mb="sm" role="alert">
            {error}
          </Alert>
        )}
        {detail ? (
          <ToolDetailPanel
            key={detail.name}
            tool={detail}
            onApprove={approve}
            approving={approving}
            callArea={<ToolCallSlot tool={detail} />}
          />
        ) : (
          <Text c="dimmed" size="sm" mt="xs">
            {list.length > 0 ? 'Pick a tool to see what it does and call it.' : 'This server offers no tools yet.'}
          </Text>
        )}
      </Box>
    </Group>
  );
}
