// Server data as the renderer is given it: nested at most VIEW_MAX_DEPTH levels, with a notice when cut.
import { boundDepth } from './depth.js';
import { depthMarker, depthNotice, VIEW_MAX_DEPTH } from './limits.js';

/** A value bounded for display, with the notice to show when something was cut. */
export interface ViewBounded<T> {
  /** The value, cut at VIEW_MAX_DEPTH levels. */
  value: T;
  /** Set when a part was cut: says what and where the limit is. */
  notice?: string;
}

/** Cuts server data at VIEW_MAX_DEPTH levels for the renderer; `what` names it in the notice ("The result"). */
export function boundForView<T>(value: T, what: string): ViewBounded<T> {
  const bounded = boundDepth(value, VIEW_MAX_DEPTH, depthMarker(VIEW_MAX_DEPTH));
  return bounded.cut ? { value: bounded.value, notice: depthNotice(what, VIEW_MAX_DEPTH) } : { value };
}
