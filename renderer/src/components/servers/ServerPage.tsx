// One server: its name, target and status, the actions on it, the launch approval and the connection doctor,
// and its sections as tabs (#/servers/<id>/<tab>). Sign-in exists only for HTTP and SSE servers.
import { useEffect, useRef } from 'react';
import type { ServerDetail } from '../../../../shared/contract';
import { Alert, Badge, Box, Button, Code, Group, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconPencil, IconPlugConnected, IconPlugConnectedX, IconRefresh, IconTrash } from '@tabler/icons-react';
import { routes } from '../../router/route';
import { useStore } from '../../store';
import { selectServerTab, type ServerTab } from '../../store/ui-slice';
import { StatusBadge } from '../../ui/StatusBadge';
import { Lazy, lazyNamed } from '../../ui/lazy';
import { TabsRow } from '../../ui/TabsRow';
import { cleanText, oneLine } from '../../ui/text';
import { useShallow } from 'zustand/react/shallow';
import { selectSelectedDetail } from '../../store/servers-slice';
import { ApprovalPanel } from './ApprovalPanel';
import { Doctor } from '../doctor/Doctor';
import { DoctorWalkPanel } from '../doctor/DoctorWalkPanel';
import { ServerOverview } from './ServerOverview';
import { connectionActionTarget, serverTabTarget } from './server-focus';
import { focusWhenLost } from '../../ui/focus';
import { looksLikeLegacySse, SwitchToSse } from './SwitchToSse';

interface TabDef {
  id: ServerTab;
  label: string;
}

// Every tab but the overview loads when it is first opened (the tabs are routes: #/servers/<id>/<tab>).
const ToolsTab = lazyNamed(() => import('../tools/ToolsTab'), 'ToolsTab');
const ResourcesTab = lazyNamed(() => import('../resources/ResourcesTab'), 'ResourcesTab');
const PromptsTab = lazyNamed(() => import('../prompts/PromptsTab'), 'PromptsTab');
const ServerAppsSection = lazyNamed(() => import('../../apps/ServerAppsSection'), 'ServerAppsSection');
const ServerEventsTab = lazyNamed(() => import('../events/ServerEventsTab'), 'ServerEventsTab');
const AuthPanel = lazyNamed(() => import('../auth/AuthPanel'), 'AuthPanel');
const ClientFeaturesPanel = lazyNamed(() => import('../protocol/ClientFeaturesPanel'), 'ClientFeaturesPanel');
const ProtocolView = lazyNamed(() => import('../protocol/ProtocolView'), 'ProtocolView');
const ServerTasks = lazyNamed(() => import('../protocol/ServerTasks'), 'ServerTasks');
const SkillsTab = lazyNamed(() => import('../skills/SkillsTab'), 'SkillsTab');

/** The Skills extension id; the Skills tab shows only for servers that declare it. */
const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** The tabs a server has: Sign-in only for remote servers, Skills only for servers declaring the extension. */
export function serverTabs(transport: string, extensions: readonly string[] = []): TabDef[] {
  return [
    { id: 'overview', label: 'Overview' },
    { id: 'tools', label: 'Tools' },
    { id: 'resources', label: 'Resources' },
    { id: 'prompts', label: 'Prompts' },
    { id: 'apps', label: 'Apps' },
    { id: 'events', label: 'Events' },
    ...(extensions.includes(SKILLS_EXTENSION) ? [{ id: 'skills', label: 'Skills' }] : []),
    ...(transport === 'stdio' ? [] : [{ id: 'auth', label: 'Sign-in' }]),
    { id: 'features', label: 'Client features' },
    { id: 'protocol', label: 'Protocol' },
  ];
}

/**
 * Keeps a connected server's tool, resource, prompt and event-type counts (overview cards and tab labels) current, whichever tab
 * is open: they follow the catalog, since a server's tools are indexed a moment after it connects.
 */
function useServerCounts(detail: ServerDetail | null): void {
  const loadCounts = useStore((s) => s.loadCounts);
  const revision = useStore((s) => s.catalogRevision);
  const id = detail?.id;
  const connected = detail?.status.state === 'connected';
  const capsKey = (detail?.identity?.capabilities ?? []).join(',');
  useEffect(() => {
    if (id !== undefined && connected) void loadCounts(id, capsKey ? capsKey.split(',') : []);
  }, [id, connected, loadCounts, revision, capsKey]);
  // Event types come from the events service, which reloads them when the server says they changed.
  const loadEventTypes = useStore((s) => s.loadEventTypes);
  useEffect(() => {
    if (id !== undefined && connected) void loadEventTypes(id);
  }, [id, connected, loadEventTypes]);
}

/**
 * When the approval panel goes away (the launch was approved), focus that was on it moves to the server's tabs, the
 * next thing to use, instead of falling to the page's body.
 */
function useFocusAfterApproval(id: string | undefined, approvalShown: boolean): void {
  const shown = useRef<{ id: string | undefined; shown: boolean }>({ id, shown: approvalShown });
  useEffect(() => {
    const before = shown.current;
    shown.current = { id, shown: approvalShown };
    if (id === undefined || before.id !== id || !before.shown || approvalShown) return;
    return focusWhenLost(() => serverTabTarget(id));
  }, [id, approvalShown]);
}

/** A connection action (Connect, Disconnect, Restart) replaces or disables its own button: focus follows to the next one. */
function followConnectionFocus(id: string): void {
  focusWhenLost(() => connectionActionTarget(id), { timeoutMs: 120_000 });
}

/** One server's page. */
export function ServerPage() {
  const detail = useStore(useShallow(selectSelectedDetail));
  const actionError = useStore((s) => s.actionError);
  const run = useStore((s) => s.runServerAction);
  const openDialog = useStore((s) => s.openDialog);
  const routeTab = useStore(selectServerTab);
  const navigate = useStore((s) => s.navigate);
  const counts = useStore((s) => (detail ? s.counts[detail.id] : undefined));
  const eventTypes = useStore((s) => (detail ? s.eventTypes[detail.id]?.result : undefined));
  useServerCounts(detail);
  useFocusAfterApproval(detail?.id, detail?.approval?.required === true);
  if (!detail) {
    return (
      <Group aria-busy="true" p="md">
        <Loader size="sm" aria-hidden />
        <Text>Loading the server…</Text>
      </Group>
    );
  }
  const st = detail.status;
  const tabs = serverTabs(detail.transport, detail.identity?.extensions);
  const tab = tabs.some((t) => t.id === routeTab) ? routeTab : 'overview';
  const setTab = (t: string | null): void => {
    if (t) navigate(routes.servers(detail.id, t === 'overview' ? undefined : t), { replace: true });
  };
  const connectionAction = (action: 'connect' | 'disconnect' | 'restart'): void => {
    followConnectionFocus(detail.id);
    void run(detail.id, action);
  };
  const connecting = st.state === 'connecting';
  const connected = st.state === 'connected';
  const tabCounts: Partial<Record<string, number>> = {
    ...(counts?.tools !== undefined ? { tools: counts.tools } : {}),
    ...(counts?.resources !== undefined ? { resources: counts.resources } : {}),
    ...(counts?.prompts !== undefined ? { prompts: counts.prompts } : {}),
    ...(eventTypes?.supported ? { events: eventTypes.types.length } : {}),
  };
  const tabCount = (id: string): number | undefined => tabCounts[id];

  return (
    <Stack component="section" aria-labelledby="server-title" gap="md" data-server-page={detail.id}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="md">
        <Box style={{ minWidth: 0 }}>
          <Title order={1} size="h2" id="server-title">
            {oneLine(detail.name)}
          </Title>
          <Group gap="xs" mt={6} wrap="nowrap" align="flex-start">
            <Badge variant="outline" color="gray" radius="sm" tt="none" style={{ flex: 'none' }}>
              {detail.transport}
            </Badge>
            <Code className="sb-mono" style={{ minWidth: 0 }} data-testid="server-target">
              {cleanText(detail.target)}
            </Code>
          </Group>
        </Box>
        <Box role="status" aria-label="Connection status" data-testid="server-status" style={{ flex: 'none' }}>
          <StatusBadge server={detail} size="md" />
        </Box>
      </Group>

      <Group gap="xs" aria-label="Server actions" role="group">
        {connected ? (
          <>
            <Button
              data-connection-action
              leftSection={<IconPlugConnectedX size={16} aria-hidden />}
              onClick={() => connectionAction('disconnect')}
            >
              Disconnect
            </Button>
            <Button data-connection-action leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => connectionAction('restart')}>
              Restart
            </Button>
          </>
        ) : (
          <Button
            variant={detail.needsApproval ? 'default' : 'filled'}
            leftSection={<IconPlugConnected size={16} aria-hidden />}
            loading={connecting}
            disabled={connecting || detail.needsApproval}
            data-connection-action
            onClick={() => connectionAction('connect')}
          >
            Connect
          </Button>
        )}
        <Button leftSection={<IconPencil size={16} aria-hidden />} onClick={() => openDialog({ kind: 'editServer', id: detail.id })}>
          Edit
        </Button>
        <Button
          variant="light"
          color="red"
          leftSection={<IconTrash size={16} aria-hidden />}
          onClick={() => openDialog({ kind: 'removeServer', id: detail.id })}
        >
          Remove
        </Button>
      </Group>

      {actionError && (
        <Alert color="red" variant="light" p="sm" role="alert">
          {cleanText(actionError)}
        </Alert>
      )}
      {detail.approval?.required && <ApprovalPanel id={detail.id} approval={detail.approval} />}
      {st.error && st.error.code !== 'approval_required' && <Doctor error={st.error} />}
      {looksLikeLegacySse(detail) && <SwitchToSse detail={detail} />}
      {(st.state === 'failed' || st.state === 'needs-auth') && st.error?.code !== 'approval_required' && (
        <DoctorWalkPanel
          key={detail.id}
          walkKey={`server:${detail.id}`}
          request={() => ({ id: detail.id })}
          label="Walk through the connection"
        />
      )}

      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <TabsRow value={tab} aria-label="Server sections">
          {tabs.map((t) => {
            const n = tabCount(t.id);
            return (
              <Tabs.Tab
                key={t.id}
                value={t.id}
                rightSection={
                  n !== undefined ? (
                    <Badge size="xs" variant="light" color="gray" radius="sm">
                      {n.toLocaleString('en')}
                    </Badge>
                  ) : undefined
                }
              >
                {t.label}
              </Tabs.Tab>
            );
          })}
        </TabsRow>
        <Tabs.Panel value="overview" pt="md">
          <ServerOverview detail={detail} />
        </Tabs.Panel>
        <Tabs.Panel value="tools" pt="md">
          <Lazy>
            <ToolsTab serverId={detail.id} />
          </Lazy>
        </Tabs.Panel>
        <Tabs.Panel value="resources" pt="md">
          <Lazy>
            <ResourcesTab serverId={detail.id} />
          </Lazy>
        </Tabs.Panel>
        <Tabs.Panel value="prompts" pt="md">
          <Lazy>
            <PromptsTab serverId={detail.id} />
          </Lazy>
        </Tabs.Panel>
        <Tabs.Panel value="apps" pt="md">
          <Lazy>
            <ServerAppsSection serverId={detail.id} />
          </Lazy>
        </Tabs.Panel>
        <Tabs.Panel value="events" pt="md">
          <Lazy>
            <ServerEventsTab serverId={detail.id} />
          </Lazy>
        </Tabs.Panel>
        {tabs.some((t) => t.id === 'skills') && (
          <Tabs.Panel value="skills" pt="md">
            <Lazy>
              <SkillsTab serverId={detail.id} />
            </Lazy>
          </Tabs.Panel>
        )}
        {detail.transport !== 'stdio' && (
          <Tabs.Panel value="auth" pt="md">
            <Lazy>
              <AuthPanel serverId={detail.id} />
            </Lazy>
          </Tabs.Panel>
        )}
        <Tabs.Panel value="features" pt="md">
          <Lazy>
            <ClientFeaturesPanel serverId={detail.id} />
          </Lazy>
        </Tabs.Panel>
        <Tabs.Panel value="protocol" pt="md">
          <Lazy>
            <ProtocolView serverId={detail.id} />
            <ServerTasks serverId={detail.id} />
          </Lazy>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
