// Bounds for server data handed to an app (tool results, resource contents): size and nesting depth are checked
// before anything crosses into the renderer; over the bound, the app gets a plain tool error instead.
import { formatSize } from '../../../shared/format-size.js';

/** Deepest nesting of objects and arrays passed to an app. */
export const APP_DATA_DEPTH = 64;

/** True when `value` nests no deeper than `max` (iterative: a hostile value cannot overflow the stack). */
export function depthWithin(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= max) return false;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return true;
}

/** Why a value may not be passed to an app, or undefined when it may. */
export function appDataProblem(value: unknown, bytes: number, maxBytes: number): string | undefined {
  if (bytes > maxBytes) return `The result is ${formatSize(bytes)}, over the ${formatSize(maxBytes)} the app may receive`;
  if (!depthWithin(value, APP_DATA_DEPTH)) return `The result nests deeper than ${APP_DATA_DEPTH} levels`;
  return undefined;
}

/** A CallToolResult that reports a problem to the app as a tool error. */
export function appErrorResult(text: string): Record<string, unknown> {
  return { content: [{ type: 'text', text }], isError: true };
}
