// The one dialog frame: a labelled modal with focus trap, focus return, Escape to close, an inert background, a
// body that scrolls on its own and action buttons that stay in view. Never taller than the window.
import { Group, Modal, type ModalProps } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';
import { focusWhenLost, takeFocusClaim } from './focus';

/** Props of AppDialog. */
export interface AppDialogProps {
  /** Whether the dialog is open. */
  opened: boolean;
  /** Called on Escape, the close button or an outside click (unless `dismissable` is false). */
  onClose: () => void;
  /** The dialog's title (its accessible name). */
  title: ReactNode;
  /** The scrolling body. */
  children: ReactNode;
  /** Buttons kept visible under the body; the one primary action last. */
  actions?: ReactNode;
  /** Width. */
  size?: ModalProps['size'];
  /** false: Escape and outside clicks do nothing (the person must pick an action). */
  dismissable?: boolean;
  /** Accessible description id inside the body, when there is one. */
  describedBy?: string;
}

let openCount = 0;

/**
 * Marks the app's root inert while any dialog is open (the dialogs live in portals outside it), and gives focus back
 * to the element that opened the dialog once it closes, also when the dialog unmounts instead of closing (focus can
 * only land there after the root is no longer inert).
 */
function useInertBackground(opened: boolean): void {
  useEffect(() => {
    if (!opened) return;
    const root = document.getElementById('root');
    const opener =
      document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    openCount += 1;
    root?.setAttribute('inert', '');
    return () => {
      openCount -= 1;
      if (openCount > 0) return;
      root?.removeAttribute('inert');
      // The dialog's action said where focus goes next (what it opened), rather than back to the opener.
      const claimed = takeFocusClaim();
      if (claimed) {
        focusWhenLost(claimed);
        return;
      }
      if (!opener) return;
      // After the modal's own focus handling. When the opener is gone (the dialog's action replaced the page, e.g.
      // adding the first server), focus goes to the new page's heading once it is there.
      let tries = 0;
      const restore = (): void => {
        const active = document.activeElement;
        const lost = active === null || active === document.body || !document.contains(active);
        if (!lost) return;
        if (opener.isConnected) return opener.focus();
        const heading = document.querySelector<HTMLElement>('main h1');
        if (heading) {
          heading.tabIndex = -1;
          heading.focus();
        } else if (tries++ < 20) setTimeout(restore, 100);
      };
      setTimeout(restore, 0);
    };
  }, [opened]);
}

/** A modal dialog with a fixed action row. */
export function AppDialog({ opened, onClose, title, children, actions, size = 'lg', dismissable = true, describedBy }: AppDialogProps) {
  useInertBackground(opened);
  return (
    <Modal.Root
      opened={opened}
      onClose={onClose}
      size={size}
      closeOnEscape={dismissable}
      closeOnClickOutside={dismissable}
      // Modal.Content's own className lands on the positioning wrapper: style the content box through classNames.
      classNames={{ content: 'sb-dialog', body: 'sb-dialog-body' }}
    >
      <Modal.Overlay />
      <Modal.Content {...(describedBy ? { 'aria-describedby': describedBy } : {})}>
        <Modal.Header>
          <Modal.Title fw={600} fz="lg">
            {title}
          </Modal.Title>
          <Modal.CloseButton aria-label="Close dialog" />
        </Modal.Header>
        <Modal.Body>{children}</Modal.Body>
        {actions && (
          <Group className="sb-dialog-actions" justify="flex-end" gap="sm">
            {actions}
          </Group>
        )}
      </Modal.Content>
    </Modal.Root>
  );
}
