// One polite live region for the app: connection changes and finished calls are announced to screen readers.
import { VisuallyHidden } from '@mantine/core';
import { useStore } from '../store';

/** The app's announcer (visually hidden). */
export function Announcer() {
  const text = useStore((s) => s.announcement);
  return (
    <VisuallyHidden role="status" aria-live="polite" aria-atomic="true" data-testid="announcer">
      {text}
    </VisuallyHidden>
  );
}
