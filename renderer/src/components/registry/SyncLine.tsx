// "Last synced" and the Sync action of the Browse view: when the chosen source's cached listings (what is shown
// offline) last caught up with its registry, and a button that brings them up to date now (registry.sync). With
// "All sources" chosen it syncs every source (a few at once) and shows the oldest sync time among them, and each
// source's own line: waiting, syncing, or its result or error, so one failing source never hides the others'.
import { Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCloudDownload } from '@tabler/icons-react';
import { useState } from 'react';
import type { RegistrySource, RegistrySyncResult } from '../../../../shared/domains/registry';
import { escapeUnsafe } from '../../../../shared/domains/catalog-text';
import { AppError } from '../../../../shared/errors';
import { useStore } from '../../store';
import { ALL_SOURCES, selectRegistrySources, type SourceSyncState } from '../../store/registry-slice';
import { countLabel } from '../../ui/count';

/** "Last synced …" for one source, or the oldest among all (never synced counts as oldest). */
function lastSyncedText(sources: RegistrySource[], source: string | undefined): string {
  const chosen = source === ALL_SOURCES ? sources : sources.filter((s) => s.url === source);
  if (chosen.length === 0) return '';
  const times = chosen.map((s) => s.lastSyncedAt);
  if (times.some((t) => t === undefined))
    return source === ALL_SOURCES && times.some((t) => t !== undefined) ? 'Some sources never synced' : 'Never synced';
  const oldest = Math.min(...(times as number[]));
  return `${source === ALL_SOURCES ? 'Oldest sync' : 'Last synced'} ${new Date(oldest).toLocaleString()}`;
}

/** What one source's last sync did, in one line. */
function resultText(r: RegistrySyncResult): { text: string; failed: boolean } {
  if (r.error !== undefined) return { text: r.error, failed: true };
  if (r.updated === 0 && r.removed === 0) return { text: 'Up to date: nothing changed at the registry', failed: false };
  return {
    text: `Synced: ${countLabel(r.updated, 'entry', 'entries')} changed, ${countLabel(r.removed, 'deleted entry', 'deleted entries')} removed`,
    failed: false,
  };
}

const hostOf = (url: string): string => url.replace(/^https?:\/\//, '');

/** One source's line of "Sync all": waiting, syncing, or how its sync ended. */
function SourceLine({ url, state, result }: { url: string; state: SourceSyncState | undefined; result: RegistrySyncResult | undefined }) {
  const outcome = state === undefined && result !== undefined ? resultText(result) : null;
  const text = state === 'waiting' ? 'Waiting…' : state === 'syncing' ? 'Syncing…' : (outcome?.text ?? 'Not synced yet');
  return (
    <Group
      component="li"
      gap={6}
      wrap="nowrap"
      align="flex-start"
      data-sync-source={url}
      data-sync-state={state ?? (outcome?.failed ? 'failed' : 'done')}
    >
      {state !== undefined ? (
        <Loader size={12} mt={4} aria-hidden />
      ) : outcome?.failed ? (
        <IconAlertTriangle size={14} color="var(--mantine-color-red-light-color)" style={{ marginTop: 3, flex: 'none' }} aria-hidden />
      ) : (
        <IconCheck size={14} style={{ marginTop: 3, flex: 'none' }} aria-hidden />
      )}
      <Text
        fz="sm"
        c={outcome?.failed ? 'var(--mantine-color-red-light-color)' : 'dimmed'}
        style={{ minWidth: 0, overflowWrap: 'anywhere' }}
      >
        <Text span fz="sm" fw={500} c="var(--mantine-color-text)">
          {escapeUnsafe(hostOf(url))}
        </Text>
        : {escapeUnsafe(text)}
      </Text>
    </Group>
  );
}

/** The sync line under the registry picker; with "All sources", one line per source under it. */
export function SyncLine({ source }: { source: string | undefined }) {
  const sources = useStore(selectRegistrySources);
  const report = useStore((s) => s.registrySync);
  const syncing = useStore((s) => s.registrySyncing);
  const syncRegistry = useStore((s) => s.syncRegistry);
  const [error, setError] = useState<string | null>(null);
  const all = source === ALL_SOURCES;
  const shown = all ? sources.map((s) => s.url) : source !== undefined ? [source] : [];
  const busy = shown.some((url) => syncing[url] !== undefined);
  const resultOf = (url: string) => report?.results.find((r) => r.source === url);
  // Only the result about the source shown (another source's outcome would read as this one's).
  const one = !all && source !== undefined && !busy ? resultOf(source) : undefined;
  const outcome = one !== undefined ? resultText(one) : null;
  // "Sync all": each source's line once a sync of any of them ran or runs.
  const lines = all && shown.some((url) => syncing[url] !== undefined || resultOf(url) !== undefined);
  const onSync = () => {
    setError(null);
    void syncRegistry(all ? undefined : source).catch((err: unknown) =>
      setError(err instanceof AppError ? err.message : 'The sync did not finish'),
    );
  };
  const failures = shown.filter((url) => syncing[url] === undefined && resultOf(url)?.error !== undefined).length;
  const summary =
    all && lines ? (busy ? 'Syncing…' : failures > 0 ? `${countLabel(failures, 'source')} failed` : 'All sources synced') : '';
  return (
    <Stack gap={4} data-sync-line>
      <Group gap="sm" wrap="wrap">
        <Text fz="sm" c="dimmed" data-last-synced>
          {lastSyncedText(sources, source)}
        </Text>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconCloudDownload size={14} aria-hidden />}
          loading={busy}
          onClick={onSync}
          aria-describedby="registry-sync-outcome"
        >
          {all ? 'Sync all' : 'Sync'}
        </Button>
        <Text
          id="registry-sync-outcome"
          fz="sm"
          c={error !== null || outcome?.failed || failures > 0 ? 'var(--mantine-color-red-light-color)' : 'dimmed'}
          role="status"
          aria-live="polite"
        >
          {error !== null ? escapeUnsafe(error) : outcome !== null ? escapeUnsafe(outcome.text) : summary}
        </Text>
      </Group>
      {lines && (
        <Stack component="ul" gap={2} m={0} p={0} style={{ listStyle: 'none' }} aria-label="Sync of each source" data-sync-sources>
          {shown.map((url) => (
            <SourceLine key={url} url={url} state={syncing[url]} result={resultOf(url)} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
