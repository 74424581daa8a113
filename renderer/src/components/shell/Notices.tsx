// App notices (corrupt settings moved aside, memory-only credentials, …), each dismissable.
import { Alert, Stack } from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle } from '@tabler/icons-react';
import { useStore } from '../../store';
import { selectNotices } from '../../store/app-slice';
import { cleanText } from '../../ui/text';

const COLORS = { info: 'blue', warning: 'yellow', error: 'red' } as const;

/** The notices region above the current view. */
export function Notices() {
  const notices = useStore(selectNotices);
  const dismiss = useStore((s) => s.dismissNotice);
  if (notices.length === 0) return null;
  return (
    <Stack gap="xs" mb="md" role="region" aria-label="Notices">
      {notices.map((n) => (
        <Alert
          key={n.id}
          color={COLORS[n.level]}
          variant="light"
          role={n.level === 'error' ? 'alert' : 'status'}
          icon={n.level === 'info' ? <IconInfoCircle size={18} aria-hidden /> : <IconAlertTriangle size={18} aria-hidden />}
          withCloseButton
          closeButtonLabel={`Dismiss notice: ${cleanText(n.message).slice(0, 120)}`}
          onClose={() => void dismiss(n.id)}
          p="sm"
        >
          {cleanText(n.message)}
        </Alert>
      ))}
    </Stack>
  );
}
