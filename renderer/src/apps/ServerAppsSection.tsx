// A server's MCP Apps on its page: the tools that have an app, the tools only its app may call (kept out of the
// model-facing catalog) with their pin state, and what the person allows its apps (everything denied until allowed).
// An app-only tool whose definition changed cannot be called by the app until approved, and this is the only place
// it is listed, so its approval (the same banner and core call as a tool's detail) is offered here.
import { Alert, Badge, Checkbox, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { AppGrants, AppPermission, ServerApps } from '../../../shared/domains/apps';
import type { ToolDetail } from '../../../shared/domains/catalog';
import { AppError } from '../../../shared/errors';
import { PinBanner } from '../components/tools/ToolDetailPanel';
import { ToolChips } from '../components/tools/ToolList';
import { useStore } from '../store';
import { selectServerApps } from '../store/apps-slice';

/** What each grant allows, as a checkbox label. */
const GRANT_LABELS: Record<AppPermission, string> = {
  camera: 'Use the camera',
  microphone: 'Use the microphone',
  geolocation: 'Know your location',
  clipboardWrite: 'Write to the clipboard',
};
const PERMISSIONS = Object.keys(GRANT_LABELS) as AppPermission[];

/** The "Apps" section of a server page. */
export function ServerAppsSection({ serverId }: { serverId: string }) {
  const apps = useStore(selectServerApps(serverId));
  const error = useStore((s) => s.serverAppsError[serverId]);
  const load = useStore((s) => s.loadServerApps);
  const setGrants = useStore((s) => s.setAppGrants);
  const revision = useStore((s) => s.catalogRevision);
  const desktop = useStore((s) => s.info?.mode === 'electron');
  useEffect(() => {
    void load(serverId);
  }, [serverId, load, revision]);

  if (!apps) {
    return error ? (
      <Alert color="red" role="alert">
        {error}
      </Alert>
    ) : (
      <Group gap="xs" aria-busy="true">
        <Loader size="xs" aria-hidden />
        <Text size="sm">Loading apps…</Text>
      </Group>
    );
  }
  const grants = apps.grants;
  const update = (next: AppGrants) => void setGrants(serverId, next);
  const toggle = (p: AppPermission, on: boolean) =>
    update({ ...grants, permissions: on ? [...grants.permissions, p] : grants.permissions.filter((x) => x !== p) });

  return (
    <Stack gap="lg" py="sm" aria-label="Apps" role="region">
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Stack gap="xs">
        <Title order={3} size="h4">
          Tools with an app
        </Title>
        {apps.apps.length === 0 ? (
          <Text size="sm" className="sb-dim">
            None of this server&apos;s tools has an MCP App.
          </Text>
        ) : (
          <Table aria-label="Tools with an app" fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Tool</Table.Th>
                <Table.Th>App resource</Table.Th>
                <Table.Th>Visible to</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {apps.apps.map((a) => (
                <Table.Tr key={a.tool}>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {a.title ?? a.originalName}
                    </Text>
                    <Text size="xs" className="sb-dim sb-mono">
                      {a.tool}
                    </Text>
                  </Table.Td>
                  <Table.Td className="sb-mono">{a.resourceUri}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {a.visibility.map((v) => (
                        <Badge key={v} size="sm" variant="light">
                          {v}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
      <Stack gap="xs">
        <Title order={3} size="h4">
          Tools only its app may call
        </Title>
        <Text size="sm" className="sb-dim">
          Their visibility leaves out the model, so they stay out of the catalog; the server&apos;s own app can still call them.
        </Text>
        {apps.appOnlyTools.length === 0 ? (
          <Text size="sm" className="sb-dim">
            None.
          </Text>
        ) : (
          <Table aria-label="App-only tools" fz="sm">
            <Table.Tbody>
              {apps.appOnlyTools.map((t) => (
                <AppOnlyToolRows key={t.tool} tool={t} />
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
      <Stack gap="xs" role="group" aria-label="What this server's apps may do">
        <Title order={3} size="h4">
          What its apps may do
        </Title>
        <Text size="sm" className="sb-dim">
          Apps run in a sandbox with no access to Switchboard. Everything below is denied unless you allow it; an app that is open takes a
          change when it is reloaded. Chromium gives the camera and microphone only to pages with an origin of their own, and apps run with
          an opaque one, so those two stay unavailable.
        </Text>
        <Group gap="lg">
          {PERMISSIONS.map((p) => (
            <Checkbox
              key={p}
              label={GRANT_LABELS[p]}
              checked={grants.permissions.includes(p)}
              onChange={(e) => toggle(p, e.currentTarget.checked)}
            />
          ))}
          <Checkbox
            label="Open pop-up windows"
            description={
              desktop
                ? 'The desktop app never opens pop-ups from apps; an app’s links open in your browser once you agree.'
                : 'A pop-up runs in the same sandbox and may show any address.'
            }
            disabled={desktop}
            checked={grants.popups && !desktop}
            onChange={(e) => update({ ...grants, popups: e.currentTarget.checked })}
          />
          <Checkbox
            label="Ask for model replies"
            description="An app’s sampling request opens the same answer-by-hand dialog as the server’s, marked as the app’s."
            checked={grants.sampling === true}
            onChange={(e) => update(withSampling(grants, e.currentTarget.checked))}
          />
        </Group>
      </Stack>
    </Stack>
  );
}

/** The grants with asking for model replies allowed or not (absent when not, as the core stores it). */
function withSampling(grants: AppGrants, on: boolean): AppGrants {
  const { sampling: _was, ...rest } = grants;
  return on ? { ...rest, sampling: true } : rest;
}

/** One app-only tool: its names, pin chips and description; when its definition changed, the approval banner below. */
function AppOnlyToolRows({ tool: t }: { tool: ServerApps['appOnlyTools'][number] }) {
  const fetchTool = useStore((s) => s.fetchTool);
  const approveDefinition = useStore((s) => s.approveToolDefinition);
  const [detail, setDetail] = useState<ToolDetail | null>(null);
  const [approving, setApproving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    fetchTool(t.tool).then(
      (d) => live && setDetail(d),
      () => live && setDetail(null),
    );
    return () => {
      live = false;
    };
    // Fetched again only when this tool's definition or approval changed, not on every catalog change.
  }, [t.tool, t.pin, t.fingerprint, fetchTool]);
  const approve = (name: string, fingerprint: string): void => {
    setApproving(true);
    setError(null);
    approveDefinition(name, fingerprint)
      .then(setDetail, (e: unknown) => setError(e instanceof AppError ? e.message : 'Approval failed'))
      .finally(() => setApproving(false));
  };
  const changed = detail?.pin === 'changed';
  return (
    <>
      <Table.Tr data-testid="app-only-tool" data-pin={detail?.pin}>
        <Table.Td w="40%">
          <Group gap="xs" wrap="wrap">
            <Text size="sm" fw={500}>
              {t.title ?? t.originalName}
            </Text>
            {detail && <ToolChips tool={detail} />}
          </Group>
          <Text size="xs" className="sb-dim sb-mono">
            {t.tool}
          </Text>
        </Table.Td>
        <Table.Td>{t.description}</Table.Td>
      </Table.Tr>
      {(changed || error) && (
        <Table.Tr>
          <Table.Td colSpan={2}>
            <Stack gap="xs">
              {error && (
                <Alert color="red" role="alert">
                  {error}
                </Alert>
              )}
              {detail && changed && <PinBanner tool={detail} onApprove={approve} approving={approving} />}
            </Stack>
          </Table.Td>
        </Table.Tr>
      )}
    </>
  );
}
