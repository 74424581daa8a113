// A registry entry's lifecycle status as a badge that reads without colour; a deprecated or deleted entry carries
// the registry's reason and when the status changed, so the badge never stands alone as a bare word.
import { Badge, Tooltip } from '@mantine/core';
import type { RegistryStatus } from '../../../../shared/domains/registry';
import { escapeUnsafe } from '../../../../shared/domains/catalog-text';

const LOOK: Record<RegistryStatus, { color: string; label: string }> = {
  active: { color: 'green', label: 'Active' },
  deprecated: { color: 'yellow', label: 'Deprecated' },
  deleted: { color: 'red', label: 'Deleted' },
};

/** The day part of an ISO date, or undefined when it is not one. */
export function statusDay(iso: string | undefined): string | undefined {
  return iso !== undefined && /^\d{4}-\d{2}-\d{2}/.test(iso) ? iso.slice(0, 10) : undefined;
}

/** The status badge; the reason (when given) is its tooltip and accessible description. */
export function StatusBadge({ status, message, changedAt }: { status: RegistryStatus; message?: string; changedAt?: string }) {
  const look = LOOK[status];
  const day = statusDay(changedAt);
  const label = look.label;
  const badge = (
    <Badge
      color={look.color}
      variant="light"
      data-status={status}
      tt="none"
      title={day !== undefined && status !== 'active' ? `${look.label} since ${day}` : undefined}
    >
      {label}
    </Badge>
  );
  return message !== undefined && status !== 'active' ? (
    <Tooltip label={escapeUnsafe(message)} multiline maw={320} withinPortal>
      {badge}
    </Tooltip>
  ) : (
    badge
  );
}
