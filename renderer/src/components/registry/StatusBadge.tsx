// A registry entry's lifecycle status as a badge that reads without colour.
import { Badge } from '@mantine/core';
import type { RegistryStatus } from '../../../../shared/domains/registry';

const LOOK: Record<RegistryStatus, { color: string; label: string }> = {
  active: { color: 'green', label: 'Active' },
  deprecated: { color: 'yellow', label: 'Deprecated' },
  deleted: { color: 'red', label: 'Deleted' },
};

/** The status badge. */
export function StatusBadge({ status }: { status: RegistryStatus }) {
  const look = LOOK[status];
  return (
    <Badge color={look.color} variant="light" data-status={status}>
      {look.label}
    </Badge>
  );
}
