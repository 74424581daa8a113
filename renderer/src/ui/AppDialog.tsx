// The one dialog frame: a labelled modal with focus trap, focus return, Escape to close, an inert background, a
// body that scrolls on its own and action buttons that stay in view. Never taller than the window.
import { Group, Modal, type ModalProps } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';

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

/** Marks the app's root inert while any dialog is open (the dialogs live in portals outside it). */
function useInertBackground(opened: boolean): void {
  useEffect(() => {
    if (!opened) return;
    const root = document.getElementById('root');
    openCount += 1;
    root?.setAttribute('inert', '');
    return () => {
      openCount -= 1;
      if (openCount === 0) root?.removeAttribute('inert');
    };
  }, [opened]);
}

/** A modal dialog with a fixed action row. */
export function AppDialog({ opened, onClose, title, children, actions, size = 'lg', dismissable = true, describedBy }: AppDialogProps) {
  useInertBackground(opened);
  return (
    <Modal.Root opened={opened} onClose={onClose} size={size} closeOnEscape={dismissable} closeOnClickOutside={dismissable}>
      <Modal.Overlay />
      <Modal.Content className="sb-dialog" {...(describedBy ? { 'aria-describedby': describedBy } : {})}>
        <Modal.Header>
          <Modal.Title fw={600} fz="lg">
            {title}
          </Modal.Title>
          <Modal.CloseButton aria-label="Close" />
        </Modal.Header>
        <Modal.Body className="sb-dialog-body">{children}</Modal.Body>
        {actions && (
          <Group className="sb-dialog-actions" justify="flex-end" gap="sm">
            {actions}
          </Group>
        )}
      </Modal.Content>
    </Modal.Root>
  );
}
