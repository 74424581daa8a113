// The Browse view (#/browse?q=…&source=…): search the MCP Registry (or a sub-registry) as you type, page through the
// results, see what can run here, install; paste an install link or a definition; check installed servers for updates.
import { Alert, Button, Group, Loader, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertTriangle, IconClipboardText, IconRefresh, IconSearch, IconWorld } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { escapeUnsafe } from '../../../../shared/domains/catalog-text';
import { countLabel } from '../../ui/count';
import { useStore } from '../../store';
import {
  ALL_SOURCES,
  ALL_SOURCES_MAX_ENTRIES,
  rememberedSource,
  rememberSource,
  selectBrowse,
  selectRegistryFlags,
  selectRegistrySources,
} from '../../store/registry-slice';
import { EntryCard } from './EntryCard';
import { SyncLine } from './SyncLine';

/** Hostname and path of a source, for the picker. */
function sourceLabel(url: string, official: boolean): string {
  const shown = url.replace(/^https?:\/\//, '');
  return official ? `Official MCP Registry (${shown})` : shown;
}

function UpdatesSummary() {
  const updates = useStore((s) => s.registryUpdates);
  // From the last update check and every sync since (a sync can flag a server before any check ran).
  const flagged = useStore(selectRegistryFlags);
  const openDialog = useStore((s) => s.openDialog);
  const flags =
    flagged.length > 0 ? (
      <Alert
        color="red"
        variant="light"
        title={`${countLabel(flagged.length, 'installed server')} no longer active at the registry`}
        role="status"
        data-flagged
      >
        <Stack gap={4}>
          {flagged.map((u) => (
            <Text key={u.id} fz="sm">
              {u.id} ({escapeUnsafe(u.name)}): {u.status === 'deleted' ? 'deleted' : 'deprecated'}
              {u.statusMessage ? ` — ${escapeUnsafe(u.statusMessage)}` : ''}
            </Text>
          ))}
        </Stack>
      </Alert>
    ) : null;
  if (updates === null) return flags;
  const available = updates.filter((u) => u.updateAvailable);
  if (updates.length === 0)
    return (
      <Text fz="sm" c="dimmed">
        No installed server came from a registry.
      </Text>
    );
  if (available.length === 0)
    return (
      <>
        {flags}
        <Text fz="sm" c="dimmed" role="status">{`All ${countLabel(updates.length, 'registry server')} are up to date.`}</Text>
      </>
    );
  return (
    <>
      {flags}
      <Alert color="orange" title={`${countLabel(available.length, 'update')} available`} role="status">
        <Stack gap={6}>
          {available.map((u) => (
            <Group key={u.id} justify="space-between" wrap="nowrap">
              <Text fz="sm">
                {u.id}: {escapeUnsafe(u.installed)} → {escapeUnsafe(u.latest ?? '')}
              </Text>
              <Button size="xs" onClick={() => openDialog({ kind: 'registryUpdate', id: u.id })}>
                Review update
              </Button>
            </Group>
          ))}
        </Stack>
      </Alert>
    </>
  );
}

/** The registry browser. */
export function BrowseView() {
  const browse = useStore(selectBrowse);
  const sources = useStore(selectRegistrySources);
  const route = useStore((s) => s.route);
  const navigate = useStore((s) => s.navigate);
  const loadRegistrySources = useStore((s) => s.loadRegistrySources);
  const searchRegistry = useStore((s) => s.searchRegistry);
  const nextRegistryPage = useStore((s) => s.nextRegistryPage);
  const loadMoreRegistry = useStore((s) => s.loadMoreRegistry);
  const previousRegistryPage = useStore((s) => s.previousRegistryPage);
  const checkRegistryUpdates = useStore((s) => s.checkRegistryUpdates);
  const openDialog = useStore((s) => s.openDialog);
  const [text, setText] = useState(route.query['q'] ?? '');
  const [debounced] = useDebouncedValue(text, 300);
  // The registry chosen last time is searched again unless the location names one.
  const source = route.query['source'] || rememberedSource() || undefined;
  const [checking, setChecking] = useState(false);

  useEffect(() => {
    void loadRegistrySources();
  }, [loadRegistrySources]);

  // Search as you type (debounced); the location keeps the query and source for deep links.
  useEffect(() => {
    const q = debounced.trim();
    if ((route.query['q'] ?? '') !== q) navigate({ view: 'browse', segments: [], query: { ...route.query, q } }, { replace: true });
    if (browse.query !== q || browse.source !== source || browse.result === null) void searchRegistry(q, source);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs when the debounced text or the source changes
  }, [debounced, source]);

  const result = browse.result;
  const page = browse.cursors.length;
  // A new page starts at the top of the list (not on first display).
  const shownPage = useRef(page);
  useEffect(() => {
    if (shownPage.current === page) return;
    shownPage.current = page;
    document.getElementById('browse-title')?.scrollIntoView?.({ block: 'start' });
  }, [page]);
  const sourceOptions = [
    ...(sources.length > 1 ? [{ value: ALL_SOURCES, label: 'All sources' }] : []),
    ...sources.map((s) => ({ value: s.url, label: sourceLabel(s.url, s.official) })),
  ];
  const officialUrls = new Set(sources.filter((s) => s.official).map((s) => s.url));
  const labelOf = (url: string): string => sourceLabel(url, officialUrls.has(url));
  return (
    <Stack gap="md" component="section" aria-labelledby="browse-title" maw={1100} pt="xs">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={1} fz="h2" id="browse-title" style={{ scrollMarginTop: 'calc(var(--app-shell-header-offset, 56px) + 16px)' }}>
          Browse servers
        </Title>
        <Group gap="sm">
          <Button leftSection={<IconClipboardText size={16} aria-hidden />} onClick={() => openDialog({ kind: 'installPaste' })}>
            Paste a link or definition
          </Button>
          <Button
            leftSection={<IconRefresh size={16} aria-hidden />}
            loading={checking}
            onClick={() => {
              setChecking(true);
              void checkRegistryUpdates().finally(() => setChecking(false));
            }}
          >
            Check for updates
          </Button>
        </Group>
      </Group>
      <UpdatesSummary />
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          label="Search"
          placeholder="Search by name, e.g. filesystem"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          style={{ flex: '1 1 260px' }}
          type="search"
          aria-describedby="browse-count"
        />
        <Select
          label="Registry"
          leftSection={<IconWorld size={16} aria-hidden />}
          data={sourceOptions}
          value={source ?? sources[0]?.url ?? null}
          onChange={(v) => {
            rememberSource(v ?? undefined);
            navigate({ view: 'browse', segments: [], query: { ...route.query, source: v ?? '' } }, { replace: true });
          }}
          allowDeselect={false}
          style={{ flex: '0 1 340px' }}
          comboboxProps={{ withinPortal: true }}
        />
        <Button onClick={() => openDialog({ kind: 'registrySources' })}>Sources…</Button>
      </Group>
      <SyncLine source={source ?? sources[0]?.url} />

      {result?.offline && (
        <Alert color="yellow" icon={<IconAlertTriangle size={18} aria-hidden />} title="Registry unreachable" role="status">
          {escapeUnsafe(result.offline.message)}
          {result.offline.cachedAt !== undefined && ` (saved ${new Date(result.offline.cachedAt).toLocaleString()})`}
        </Alert>
      )}
      {browse.error && (
        <Alert color="red" title="The registry could not be searched" role="alert">
          {escapeUnsafe(browse.error)}
        </Alert>
      )}

      <Group justify="space-between" gap="sm">
        <Text id="browse-count" fz="sm" c="dimmed" role="status" aria-live="polite">
          {browse.loading
            ? 'Searching…'
            : result
              ? `${countLabel(result.servers.length, 'server')} ${source === ALL_SOURCES ? `from ${countLabel(sources.length, 'source')}` : `on page ${page}`}${browse.query ? ` for “${browse.query}”` : ''}${source === ALL_SOURCES && result.servers.length >= ALL_SOURCES_MAX_ENTRIES ? ` (the first ${ALL_SOURCES_MAX_ENTRIES}; narrow the search to see others)` : ''}`
              : ''}
        </Text>
        {browse.loading && <Loader size="xs" aria-hidden />}
      </Group>

      {result && result.skipped.length > 0 && (
        <details>
          <summary>
            <Text span fz="sm" c="dimmed">
              {countLabel(result.skipped.length, 'entry', 'entries')} {source === ALL_SOURCES ? 'of these results' : 'of this page'} could
              not be read and {result.skipped.length === 1 ? 'was' : 'were'} left out
            </Text>
          </summary>
          <Stack gap={2} mt={4}>
            {result.skipped.map((s, i) => (
              <Text key={i} fz="xs" c="dimmed">
                {s.name ? `${escapeUnsafe(s.name)}: ` : ''}
                {escapeUnsafe(s.reason)}
              </Text>
            ))}
          </Stack>
        </details>
      )}

      {result && result.servers.length === 0 && !browse.loading && (
        <Text c="dimmed">{browse.query ? `No servers match “${browse.query}”.` : 'This registry lists no servers.'}</Text>
      )}
      <Stack gap="sm" aria-busy={browse.loading}>
        {result?.servers.map((entry) => (
          <EntryCard
            key={`${entry.source} ${entry.name}`}
            entry={entry}
            {...(sources.length > 1 ? { sourceLabel: labelOf(entry.source) } : {})}
          />
        ))}
      </Stack>

      {result && source === ALL_SOURCES && browse.more.length > 0 && (
        <Group justify="center" gap="sm" component="nav" aria-label="More results">
          <Button loading={browse.loading} onClick={() => void loadMoreRegistry()}>
            Load more
          </Button>
          <Text fz="sm" c="dimmed">
            {`${countLabel(browse.more.length, 'source')} ${browse.more.length === 1 ? 'has' : 'have'} more`}
          </Text>
        </Group>
      )}
      {result && source !== ALL_SOURCES && (page > 1 || result.nextCursor !== undefined) && (
        <Group justify="center" gap="sm" component="nav" aria-label="Pages">
          <Button disabled={page <= 1 || browse.loading} onClick={() => void previousRegistryPage()}>
            Previous page
          </Button>
          <Text fz="sm">Page {page}</Text>
          <Button disabled={result.nextCursor === undefined || browse.loading} onClick={() => void nextRegistryPage()}>
            Next page
          </Button>
        </Group>
      )}
    </Stack>
  );
}
