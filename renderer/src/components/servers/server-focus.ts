// The places on a server's page that keyboard focus moves to when the element that had it goes away.

function serverPage(id: string): HTMLElement | null {
  return document.querySelector<HTMLElement>(`[data-server-page="${CSS.escape(id)}"]`);
}

/** A newly added server's next step: its launch approval's heading when it needs one, else its page heading. */
export function serverPageFocusTarget(id: string): HTMLElement | null {
  const page = serverPage(id);
  if (!page) return null;
  return page.querySelector<HTMLElement>('#launch-approval-title') ?? page.querySelector<HTMLElement>('h1');
}

/** The server's selected section tab (after the approval panel is gone: the tabs are what comes next). */
export function serverTabTarget(id: string): HTMLElement | null {
  return serverPage(id)?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]') ?? null;
}

/** The server's Connect, Disconnect or Restart button that can be pressed now (none while connecting). */
export function connectionActionTarget(id: string): HTMLElement | null {
  return serverPage(id)?.querySelector<HTMLElement>('[data-connection-action]:not(:disabled)') ?? null;
}
