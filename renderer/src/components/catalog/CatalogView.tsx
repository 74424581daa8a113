// One searchable catalog across every connected server: the servers' capability groups, a virtualized list and the
// open tool. Its state lives in the fragment (#/catalog/<tool>?q=…&server=…&hint=…): typing replaces the entry.
import { Accordion, Alert, Box, Button, Group, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconRefresh, IconSearch } from '@tabler/icons-react';
import { useCallback, useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { formatRoute, routes } from '../../router/route';
import { useStore } from '../../store';
import type { AnnotationFilter } from '../../store/catalog-slice';
import { countLabel } from '../../ui/count';
import { oneLine } from '../../ui/text';
import { GroupsDirectory } from './GroupsDirectory';
import { ToolCallSlot } from '../tools/ToolCallSlot';
import { ToolDetailPanel } from '../tools/ToolDetailPanel';
import { ToolList } from '../tools/ToolList';

const ANNOTATIONS: { value: AnnotationFilter; label: string }[] = [
  { value: 'readOnly', label: 'Read-only hint' },
  { value: 'destructive', label: 'Destructive hint' },
  { value: 'idempotent', label: 'Idempotent hint' },
  { value: 'openWorld', label: 'Open-world hint' },
];
const isAnnotation = (v: string | undefined): v is AnnotationFilter => ANNOTATIONS.some((a) => a.value === v);

/** The catalog view. */
export function CatalogView() {
  const s = useStore(
    useShallow((st) => ({
      groups: st.groups,
      results: st.results,
      error: st.catalogError,
      selected: st.selectedTool,
      detail: st.toolDetail,
      toolError: st.toolError,
      approving: st.approving,
      refreshing: st.refreshing,
      route: st.route,
      serversById: st.serversById,
    })),
  );
  const a = useStore(
    useShallow((st) => ({
      load: st.loadCatalog,
      setFilters: st.setCatalogFilters,
      ensureRows: st.ensureRows,
      openTool: st.openTool,
      approve: st.approveTool,
      refresh: st.refreshCatalog,
      navigate: st.navigate,
    })),
  );
  const q = s.route.query['q'] ?? '';
  const server = s.route.query['server'] || null;
  const hintRaw = s.route.query['hint'];
  const hint = isAnnotation(hintRaw) ? hintRaw : null;
  const tool = s.route.segments[0] ?? null;

  useEffect(() => {
    void a.load();
  }, [a]);
  useEffect(() => {
    a.setFilters({ query: q, server, annotation: hint });
  }, [a, q, server, hint]);
  useEffect(() => {
    if (tool !== useStore.getState().selectedTool) void a.openTool(tool);
  }, [a, tool]);

  const go = (patch: { q?: string; server?: string | null; hint?: string | null; tool?: string | null }, replace = true): void => {
    const next = { q, server, hint, tool, ...patch };
    a.navigate(routes.catalog(next.q, next.tool ?? undefined, { server: next.server, hint: next.hint }), { replace });
  };
  const rows = s.results.rows;
  const row = useCallback((i: number) => rows[i], [rows]);
  const onRange = useCallback((start: number, end: number) => a.ensureRows(start, end), [a]);
  const hrefFor = useCallback((name: string) => formatRoute(routes.catalog(q, name, { server, hint })), [q, server, hint]);
  const nameOf = useCallback((id: string) => s.serversById[id]?.name ?? id, [s.serversById]);
  // A server that lost its secrets is pickable too (its last-known tools are listed), marked so in its label.
  const serverOptions = s.groups
    .map((g) => ({ value: g.serverId, label: oneLine(nameOf(g.serverId)) + (g.unavailable ? ' (secret lost)' : '') }))
    .sort((x, y) => x.label.localeCompare(y.label));

  return (
    <Stack component="section" aria-labelledby="catalog-title" gap="md">
      <Group justify="space-between">
        <Title order={1} size="h2" id="catalog-title">
          Catalog
        </Title>
        <Button leftSection={<IconRefresh size={16} aria-hidden />} loading={s.refreshing} onClick={() => void a.refresh()}>
          Refresh all
        </Button>
      </Group>
      <Accordion variant="contained" defaultValue={s.groups.length <= 6 ? 'groups' : null} chevronPosition="left">
        <Accordion.Item value="groups">
          <Accordion.Control>
            <Text component="span" fw={600}>
              Servers and their capability groups
            </Text>{' '}
            <Text component="span" c="dimmed" size="sm">
              ({countLabel(s.groups.length, 'server', 'servers', 'none yet')})
            </Text>
          </Accordion.Control>
          <Accordion.Panel>
            <GroupsDirectory groups={s.groups} onPick={(id) => go({ server: id, tool: null }, false)} />
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>
      <Group gap="sm" align="flex-end" role="search" aria-label="Search the catalog">
        <TextInput
          label="Search tools"
          placeholder="Name, title or description"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={q}
          onChange={(e) => go({ q: e.currentTarget.value })}
          style={{ flex: '1 1 260px' }}
          type="search"
        />
        <NativeSelect
          label="Server"
          value={server ?? ''}
          onChange={(e) => go({ server: e.currentTarget.value || null })}
          data={[{ value: '', label: 'All servers' }, ...serverOptions]}
          style={{ flex: '0 1 220px' }}
        />
        <NativeSelect
          label="Hint"
          value={hint ?? ''}
          onChange={(e) => go({ hint: e.currentTarget.value || null })}
          data={[{ value: '', label: 'Any hint' }, ...ANNOTATIONS]}
          style={{ flex: '0 1 180px' }}
        />
        <Text size="sm" fw={500} data-testid="catalog-total" aria-live="polite" pb={8}>
          {countLabel(s.results.total, 'tool', 'tools', 'No tools')}
        </Text>
      </Group>
      {s.error && (
        <Alert color="red" variant="light" p="sm" role="alert">
          {s.error}
        </Alert>
      )}
      <Group align="flex-start" gap="md" wrap="nowrap">
        <Box
          className="sb-sticky-column"
          style={{
            flex: '0 0 clamp(240px, 34%, 400px)',
            minWidth: 0,
            border: '1px solid var(--mantine-color-default-border)',
            borderRadius: 'var(--mantine-radius-sm)',
          }}
        >
          <ToolList
            total={s.results.total}
            row={row}
            selected={s.selected}
            hrefFor={hrefFor}
            onRange={onRange}
            dataKey={s.results.key}
            label="Catalog tools"
            serverName={nameOf}
            height="min(620px, calc(100dvh - 130px))"
          />
        </Box>
        <Box style={{ flex: 1, minWidth: 0 }}>
          {s.toolError && (
            <Alert color="red" variant="light" p="sm" mb="sm" role="alert">
              {s.toolError}
            </Alert>
          )}
          {s.detail ? (
            <ToolDetailPanel
              key={s.detail.name}
              tool={s.detail}
              onApprove={(n, f) => void a.approve(n, f)}
              approving={s.approving}
              callArea={<ToolCallSlot tool={s.detail} />}
            />
          ) : (
            <Text c="dimmed" size="sm">
              {s.results.total > 0 ? 'Pick a tool to see what it does and call it.' : 'No tool matches.'}
            </Text>
          )}
        </Box>
      </Group>
    </Stack>
  );
}
