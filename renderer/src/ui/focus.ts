// Where keyboard focus goes when the element that had it disappears (an approved panel, a Connect button that turns
// into Disconnect, a dialog whose action opened another page): to the next action, never to <body>.

/** Whether focus is nowhere useful: on <body>, on an element no longer in the page, or on a disabled control. */
export function focusLost(): boolean {
  const active = document.activeElement;
  if (active === null || active === document.body || !active.isConnected) return true;
  return active instanceof HTMLButtonElement && active.disabled;
}

/** Focuses an element, making it focusable by script first when it is not (a heading). */
export function focusElement(el: HTMLElement): void {
  if (el.tabIndex < 0 && !el.hasAttribute('tabindex')) el.tabIndex = -1;
  el.focus();
}

/** How long to wait for the target, and how often to look. */
export interface FocusWaitOptions {
  /** Give up after this long (a connection can take a while). */
  timeoutMs?: number;
}

/**
 * Once focus is lost, moves it to what `find` returns (looking again until it exists). Stops without doing anything
 * as soon as the person puts focus somewhere else themselves. Returns a function that cancels the wait.
 */
export function focusWhenLost(find: () => HTMLElement | null, { timeoutMs = 5000 }: FocusWaitOptions = {}): () => void {
  const start = document.activeElement;
  const until = Date.now() + timeoutMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const look = (): void => {
    timer = undefined;
    if (Date.now() > until) return;
    if (focusLost()) {
      const target = find();
      if (target && !(target instanceof HTMLButtonElement && target.disabled)) return focusElement(target);
    } else if (document.activeElement !== start) {
      return; // the person moved on
    }
    timer = setTimeout(look, 50);
  };
  timer = setTimeout(look, 0);
  return () => {
    if (timer !== undefined) clearTimeout(timer);
  };
}

let claim: (() => HTMLElement | null) | null = null;

/**
 * Says where focus goes when the open dialog closes, instead of back to its opener: a dialog whose action opened
 * something new (Add server → the new server's approval panel) calls this before it closes.
 */
export function claimFocusAfterDialog(find: () => HTMLElement | null): void {
  claim = find;
}

/** The pending claim, if any (taken once). */
export function takeFocusClaim(): (() => HTMLElement | null) | null {
  const taken = claim;
  claim = null;
  return taken;
}
