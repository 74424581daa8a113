// Resource browser: a virtualized list of a server's resources (paged), templates with a variables form, and a
// preview that refreshes and marks itself when a subscribed resource changes. The open resource is in the
// fragment (#/servers/<id>/resources/<uri>).
import { ActionIcon, Alert, Badge, Box, Button, Group, Loader, Paper, Stack, Text, Title, Tooltip, UnstyledButton } from '@mantine/core';
import { IconBell, IconBellOff, IconRefresh, IconReload } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { ResourceItem, ResourceReadResult, ResourceTemplateItem } from '../../../shared/domains/resources';
import { AppError } from '../../../shared/errors';
import { formatRoute, routes } from '../router/route';
import { useStore } from '../store';
import { selectResourceUpdates } from '../store/resources-slice';
import { countLabel } from '../ui/count';
import { cleanText, oneLine } from '../ui/text';
import { CompletionInput } from './CompletionInput';
import { ResourcePreview } from './ResourcePreview';
import { api } from '../bridge';

const ROW = 52;

function message(err: unknown): string {
  return err instanceof AppError ? err.message : 'Something went wrong';
}

type Target = { kind: 'uri'; uri: string } | { kind: 'template'; template: ResourceTemplateItem; variables: Record<string, string> };

function ResourceList(props: { serverId: string; items: ResourceItem[]; selected: string | undefined }) {
  const parent = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: props.items.length,
    getScrollElement: () => parent.current,
    estimateSize: () => ROW,
    overscan: 8,
  });
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    if (!['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(e.key)) return;
    const current = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>('[data-index]');
    if (!current) return;
    e.preventDefault();
    const at = Number(current.dataset['index']);
    const n = props.items.length;
    const next = e.key === 'Home' ? 0 : e.key === 'End' ? n - 1 : Math.max(0, Math.min(n - 1, at + (e.key === 'ArrowDown' ? 1 : -1)));
    virtual.scrollToIndex(next);
    const focus = (tries: number): void => {
      const el = parent.current?.querySelector<HTMLElement>(`[data-index="${next}"] a`);
      if (el) el.focus();
      else if (tries > 0) requestAnimationFrame(() => focus(tries - 1));
    };
    requestAnimationFrame(() => focus(10));
  };
  return (
    <Box
      ref={parent}
      role="list"
      aria-label="Resources"
      onKeyDown={onKeyDown}
      style={{
        height: `min(${Math.max(ROW, Math.min(props.items.length, 9) * ROW + 4)}px, calc(100dvh - 260px))`,
        overflowY: 'auto',
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 'var(--mantine-radius-sm)',
      }}
    >
      <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
        {virtual.getVirtualItems().map((row) => {
          const r = props.items[row.index];
          if (!r) return null;
          const active = props.selected === r.uri;
          return (
            <div
              key={r.uri}
              role="listitem"
              data-index={row.index}
              style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW, transform: `translateY(${row.start}px)` }}
            >
              <a
                href={formatRoute(routes.servers(props.serverId, 'resources', r.uri))}
                className="sb-row"
                data-active={active || undefined}
                aria-current={active ? 'true' : undefined}
                style={{ height: ROW - 2, overflow: 'hidden', padding: '6px 10px' }}
              >
                <Text component="span" size="sm" fw={500} display="block" truncate>
                  {oneLine(r.title ?? r.name)}
                </Text>
                <Text component="span" size="xs" c="dimmed" className="sb-mono" display="block" truncate>
                  {oneLine(r.uri)}
                </Text>
              </a>
            </div>
          );
        })}
      </div>
    </Box>
  );
}

function TemplateForm(props: { serverId: string; template: ResourceTemplateItem; onRead: (variables: Record<string, string>) => void }) {
  const [values, setValues] = useState<Record<string, string>>({});
  return (
    <Paper
      component="form"
      withBorder
      p="sm"
      aria-label={`Template ${props.template.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        props.onRead(values);
      }}
    >
      <Stack gap="xs">
        <Text size="xs" c="dimmed" className="sb-mono">
          {cleanText(props.template.uriTemplate)}
        </Text>
        {props.template.description && <Text size="sm">{cleanText(props.template.description)}</Text>}
        {props.template.variables.map((v) => (
          <CompletionInput
            key={v}
            serverId={props.serverId}
            completionRef={{ type: 'ref/resource', uri: props.template.uriTemplate }}
            name={v}
            label={v}
            value={values[v] ?? ''}
            context={values}
            onChange={(x) => setValues({ ...values, [v]: x })}
          />
        ))}
        <Group>
          <Button type="submit" variant="filled" size="sm">
            Read
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** Resources of one server. */
export function ResourcesTab(props: { serverId: string }) {
  const id = props.serverId;
  const navigate = useStore((s) => s.navigate);
  const routeUri = useStore((s) => (s.route.view === 'servers' && s.route.segments[1] === 'resources' ? s.route.segments[2] : undefined));
  const [items, setItems] = useState<ResourceItem[]>([]);
  const [listed, setListed] = useState(false);
  const [cursor, setCursor] = useState<string | undefined>();
  const [templates, setTemplates] = useState<ResourceTemplateItem[]>([]);
  const [listError, setListError] = useState<string | null>(null);
  const [target, setTarget] = useState<Target | undefined>();
  const [read, setRead] = useState<ResourceReadResult | undefined>();
  const [readError, setReadError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [subscribed, setSubscribed] = useState<Set<string>>(new Set());
  const [updatedMark, setUpdatedMark] = useState(false);
  const [chosenTemplate, setChosenTemplate] = useState<ResourceTemplateItem | undefined>();
  const listVersion = useStore((s) => s.resourceListVersion[id] ?? 0);
  const shownUri = read?.uri ?? (target?.kind === 'uri' ? target.uri : undefined);
  const updates = useStore(selectResourceUpdates(id, shownUri ?? ''));

  const loadList = useCallback(async () => {
    setListError(null);
    try {
      const page = await api['resources.list']({ id });
      setItems(page.resources);
      setCursor(page.nextCursor);
      setTemplates((await api['resources.templates']({ id })).templates);
    } catch (err) {
      setListError(message(err));
    } finally {
      setListed(true);
    }
  }, [id]);

  useEffect(() => {
    void loadList();
  }, [loadList, listVersion]);

  const doRead = useCallback(
    async (t: Target) => {
      setLoading(true);
      setReadError(null);
      try {
        setRead(
          t.kind === 'uri'
            ? await api['resources.read']({ id, uri: t.uri })
            : await api['resources.read']({ id, uriTemplate: t.template.uriTemplate, variables: t.variables }),
        );
      } catch (err) {
        setRead(undefined);
        setReadError(message(err));
      } finally {
        setLoading(false);
      }
    },
    [id],
  );

  // The fragment names the open resource: reading follows it (links, back/forward, a pasted deep link).
  useEffect(() => {
    if (routeUri === undefined) return;
    const t: Target = { kind: 'uri', uri: routeUri };
    setTarget(t);
    setUpdatedMark(false);
    void doRead(t);
  }, [routeUri, doRead]);

  const seenUpdates = useRef(updates);
  useEffect(() => {
    if (updates > seenUpdates.current && target) {
      setUpdatedMark(true);
      void doRead(target);
    }
    seenUpdates.current = updates;
  }, [updates, target, doRead]);

  const openTemplate = (t: Target) => {
    if (routeUri !== undefined) navigate(routes.servers(id, 'resources'), { replace: true });
    setTarget(t);
    setUpdatedMark(false);
    void doRead(t);
  };

  const toggleSubscribe = async (uri: string) => {
    try {
      if (subscribed.has(uri)) {
        await api['resources.unsubscribe']({ id, uri });
        const next = new Set(subscribed);
        next.delete(uri);
        setSubscribed(next);
      } else {
        await api['resources.subscribe']({ id, uri });
        setSubscribed(new Set(subscribed).add(uri));
      }
    } catch (err) {
      setReadError(message(err));
    }
  };

  return (
    <Group align="flex-start" gap="md" wrap="nowrap" role="region" aria-label="Resources">
      <Stack gap="sm" className="sb-sticky-column" style={{ flex: '0 0 clamp(220px, 34%, 360px)', minWidth: 0 }}>
        <Group justify="space-between" wrap="nowrap">
          <Title order={2} size="h4">
            Resources
          </Title>
          <Tooltip label="Refresh the list">
            <ActionIcon size="lg" variant="default" aria-label="Refresh resources" onClick={() => void loadList()}>
              <IconRefresh size={16} aria-hidden />
            </ActionIcon>
          </Tooltip>
        </Group>
        {listError && (
          <Alert color="red" variant="light" p="xs" role="alert">
            {listError}
          </Alert>
        )}
        <Text size="xs" c="dimmed">
          {!listed ? 'Loading…' : countLabel(items.length, 'resource', 'resources', 'No resources listed')}
          {cursor !== undefined ? ' (more available)' : ''}
        </Text>
        {items.length > 0 && <ResourceList serverId={id} items={items} selected={target?.kind === 'uri' ? target.uri : undefined} />}
        {cursor !== undefined && (
          <Button
            size="xs"
            onClick={() =>
              void api['resources.list']({ id, cursor })
                .then((p) => {
                  setItems([...items, ...p.resources]);
                  setCursor(p.nextCursor);
                })
                .catch((err: unknown) => setListError(message(err)))
            }
          >
            Load more
          </Button>
        )}
        {templates.length > 0 && (
          <Box>
            <Title order={2} size="h5" mb={6}>
              Templates
            </Title>
            <Stack gap={4} component="ul" aria-label="Resource templates" m={0} p={0} style={{ listStyle: 'none' }}>
              {templates.map((t) => (
                <li key={t.uriTemplate}>
                  <UnstyledButton
                    className="sb-row"
                    data-active={chosenTemplate?.uriTemplate === t.uriTemplate || undefined}
                    aria-pressed={chosenTemplate?.uriTemplate === t.uriTemplate}
                    onClick={() => setChosenTemplate(t)}
                  >
                    <Text component="span" size="sm" fw={500} display="block">
                      {oneLine(t.title ?? t.name)}
                    </Text>
                    <Text component="span" size="xs" c="dimmed" className="sb-mono" display="block" truncate>
                      {oneLine(t.uriTemplate)}
                    </Text>
                  </UnstyledButton>
                </li>
              ))}
            </Stack>
            {chosenTemplate && (
              <Box mt="xs">
                <TemplateForm
                  key={chosenTemplate.uriTemplate}
                  serverId={id}
                  template={chosenTemplate}
                  onRead={(variables) => openTemplate({ kind: 'template', template: chosenTemplate, variables })}
                />
              </Box>
            )}
          </Box>
        )}
      </Stack>
      <Box role="region" aria-label="Preview" style={{ flex: 1, minWidth: 0 }}>
        <Title order={2} size="h4" mb="xs">
          Preview
        </Title>
        {!target && (
          <Text size="sm" c="dimmed">
            Pick a resource to preview it. Addresses inside resources are never fetched.
          </Text>
        )}
        {shownUri && (
          <Group gap="xs" mb="sm" wrap="nowrap">
            <Text size="sm" fw={500} className="sb-mono" style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
              {cleanText(shownUri)}
            </Text>
            {updatedMark && (
              <Badge color="blue" variant="light" role="status" tt="none">
                Updated
              </Badge>
            )}
            <Button
              size="xs"
              leftSection={subscribed.has(shownUri) ? <IconBellOff size={14} aria-hidden /> : <IconBell size={14} aria-hidden />}
              onClick={() => void toggleSubscribe(shownUri)}
            >
              {subscribed.has(shownUri) ? 'Unsubscribe' : 'Subscribe'}
            </Button>
            {target && (
              <Button size="xs" leftSection={<IconReload size={14} aria-hidden />} onClick={() => void doRead(target)}>
                Reload
              </Button>
            )}
          </Group>
        )}
        {loading && (
          <Group gap="xs" aria-busy="true">
            <Loader size="xs" aria-hidden />
            <Text size="sm">Reading…</Text>
          </Group>
        )}
        {readError && (
          <Alert color="red" variant="light" p="sm" role="alert">
            {readError}
          </Alert>
        )}
        {read && <ResourcePreview parts={read.parts} />}
      </Box>
    </Group>
  );
}
