import { useEffect, useId, useRef, type ReactNode } from 'react';

/** An accessible modal dialog: role=dialog, labelled by its title, Escape closes. */
export function Modal(props: { title: string; onClose: () => void; children: ReactNode; wide?: boolean }) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const first = ref.current?.querySelector<HTMLElement>('input, select, textarea, button');
    first?.focus();
  }, []);
  return (
    <div className="modal-backdrop">
      <div
        ref={ref}
        className={props.wide ? 'modal wide' : 'modal'}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={(e) => {
          if (e.key === 'Escape') props.onClose();
        }}
      >
        <h2 id={titleId}>{props.title}</h2>
        {props.children}
      </div>
    </div>
  );
}
