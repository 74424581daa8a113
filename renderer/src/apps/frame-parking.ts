// Where a closing app frame waits for its app's answer to ui/resource-teardown: a hidden holder outside the React
// tree. The frame is moved there with a state-preserving move, so the app keeps running; without one (older
// engines), a move would reload the app, so the frame is left where it is and goes with its view. A frame handed to
// another view (picture-in-picture and back) waits there too, until that view adopts it.
const HOLDER_CLASS = 'sb-app-parking';
/** Class of a parked frame (not `sb-app-frame`, so a view's own frame is the only one that matches that). */
export const PARKED_FRAME_CLASS = 'sb-app-frame-closing';

type MoveBefore = (node: Node, child: Node | null) => void;

function holder(): HTMLElement {
  const found = document.querySelector<HTMLElement>(`.${HOLDER_CLASS}`);
  if (found) return found;
  const el = document.createElement('div');
  el.className = HOLDER_CLASS;
  el.setAttribute('aria-hidden', 'true');
  el.inert = true;
  Object.assign(el.style, {
    position: 'fixed',
    left: '-10000px',
    top: '0',
    width: '800px',
    height: '600px',
    overflow: 'hidden',
    pointerEvents: 'none',
  });
  document.body.appendChild(el);
  return el;
}

/** Moves a running frame into the hidden holder; false when this engine cannot move it without reloading it. */
export function parkFrame(frame: HTMLIFrameElement): boolean {
  const target = holder();
  const move = (target as unknown as { moveBefore?: MoveBefore }).moveBefore;
  if (!frame.isConnected || typeof move !== 'function') return false;
  try {
    move.call(target, frame, null);
  } catch {
    return false;
  }
  frame.className = PARKED_FRAME_CLASS;
  if (frame.dataset['launch']) frame.dataset['parkedLaunch'] = frame.dataset['launch'];
  frame.removeAttribute('data-launch');
  return true;
}

/** Moves a parked, running frame into `host` (a view adopting it); false when it cannot be moved without reloading. */
export function adoptFrame(frame: HTMLIFrameElement, host: HTMLElement): boolean {
  const move = (host as unknown as { moveBefore?: MoveBefore }).moveBefore;
  if (!frame.isConnected || typeof move !== 'function') return false;
  try {
    move.call(host, frame, null);
  } catch {
    return false;
  }
  frame.className = 'sb-app-frame';
  if (frame.dataset['parkedLaunch']) frame.dataset['launch'] = frame.dataset['parkedLaunch'];
  frame.removeAttribute('data-parked-launch');
  return true;
}
