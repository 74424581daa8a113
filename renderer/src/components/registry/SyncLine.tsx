// "Last synced" and the Sync action of the Browse view: when the chosen source's cached listings (what is shown
// offline) last caught up with its registry, and a button that brings them up to date now (registry.sync). With
// "All sources" chosen it syncs every source and shows the oldest sync time among them.
import { Button, Group, Text } from '@mantine/core';
import { IconCloudDownload } from '@tabler/icons-react';
import { useState } from 'react';
import type { RegistrySource, RegistrySyncReport } from '../../../../shared/domains/registry';
import { escapeUnsafe } from '../../../../shared/domains/catalog-text';
import { AppError } from '../../../../shared/errors';
import { useStore } from '../../store';
import { ALL_SOURCES, selectRegistrySources } from '../../store/registry-slice';
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

/** What the last sync did, in one line; failures named by source. */
function reportText(report: RegistrySyncReport): { text: string; failed: boolean } {
  const failures = report.results.filter((r) => r.error !== undefined);
  if (failures.length > 0)
    return { text: failures.map((r) => `${r.source.replace(/^https?:\/\//, '')}: ${r.error}`).join('; '), failed: true };
  const updated = report.results.reduce((n, r) => n + r.updated, 0);
  const removed = report.results.reduce((n, r) => n + r.removed, 0);
  if (updated === 0 && removed === 0) return { text: 'Up to date: nothing changed at the registry', failed: false };
  return {
    text: `Synced: ${countLabel(updated, 'entry', 'entries')} changed, ${countLabel(removed, 'deleted entry', 'deleted entries')} removed`,
    failed: false,
  };
}

/** The sync line under the registry picker. */
export function SyncLine({ source }: { source: string | undefined }) {
  const sources = useStore(selectRegistrySources);
  const report = useStore((s) => s.registrySync);
  const syncRegistry = useStore((s) => s.syncRegistry);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Only a report about the source shown (another source's outcome would read as this one's).
  const covers = report !== null && (source === ALL_SOURCES || report.results.some((r) => r.source === source));
  const outcome = covers ? reportText(report) : null;
  const onSync = () => {
    setBusy(true);
    setError(null);
    void syncRegistry(source === ALL_SOURCES ? undefined : source)
      .catch((err: unknown) => setError(err instanceof AppError ? err.message : 'The sync did not finish'))
      .finally(() => setBusy(false));
  };
  return (
    <Group gap="sm" wrap="wrap" data-sync-line>
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
        {source === ALL_SOURCES ? 'Sync all' : 'Sync'}
      </Button>
      <Text
        id="registry-sync-outcome"
        fz="sm"
        c={error !== null || outcome?.failed ? 'var(--mantine-color-red-light-color)' : 'dimmed'}
        role="status"
        aria-live="polite"
      >
        {error !== null ? escapeUnsafe(error) : outcome !== null && !busy ? escapeUnsafe(outcome.text) : ''}
      </Text>
    </Group>
  );
}
