// A tab list kept on one row: tabs that do not fit scroll sideways, and the selected tab is scrolled into view
// whenever it changes or the row is resized (a deep link to the last section in a narrow window shows its tab).
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { Tabs } from '@mantine/core';

/** Props of TabsRow: the selected tab's value (to keep it in view), the list's label and its tabs. */
export interface TabsRowProps {
  value: string;
  'aria-label': string;
  children: ReactNode;
}

/** Scrolls `list` sideways just enough to show `tab` whole. */
export function revealTab(list: HTMLElement, tab: HTMLElement): void {
  const l = list.getBoundingClientRect();
  const t = tab.getBoundingClientRect();
  if (t.left < l.left) list.scrollLeft -= l.left - t.left;
  else if (t.right > l.right) list.scrollLeft += Math.min(t.right - l.right, t.left - l.left);
}

/** A one-row Tabs.List that keeps its selected tab in view. */
export function TabsRow({ value, children, ...rest }: TabsRowProps) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const list = ref.current;
    if (!list) return;
    const reveal = (): void => {
      const tab = list.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]');
      if (tab) revealTab(list, tab);
    };
    reveal();
    // A window made narrower keeps the selected tab in view too.
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(reveal) : undefined;
    observer?.observe(list);
    return () => observer?.disconnect();
  }, [value]);
  return (
    <Tabs.List ref={ref} className="sb-tabs-row" aria-label={rest['aria-label']}>
      {children}
    </Tabs.List>
  );
}
