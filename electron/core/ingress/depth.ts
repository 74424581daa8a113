// Nesting depth of JSON values, measured and bounded without recursion (so a value nested a million levels deep
// costs a loop, never the call stack).

/** A JSON container: object or array. */
type Container = Record<string, unknown> | unknown[];

function isContainer(v: unknown): v is Container {
  return typeof v === 'object' && v !== null;
}

/**
 * Nesting depth of a JSON value: 0 for a scalar, 1 for `{}` or `[1]`, 2 for `{"a":{}}` and so on. Stops once the
 * depth passes `stopAt` and returns `stopAt + 1`, so the cost of a check is bounded by the part above the limit.
 */
export function jsonDepth(value: unknown, stopAt = Number.MAX_SAFE_INTEGER): number {
  if (!isContainer(value)) return 0;
  let max = 0;
  const stack: [Container, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > max) {
      max = depth;
      if (max > stopAt) return stopAt + 1;
    }
    const children = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) if (isContainer(child)) stack.push([child, depth + 1]);
  }
  return max;
}

/** A value cut at a depth, and whether anything was cut. */
export interface Bounded<T> {
  /** The value, with every container deeper than the limit replaced by the marker (the input when nothing was cut). */
  value: T;
  /** True when some part was replaced. */
  cut: boolean;
}

/**
 * Returns `value` with every container that would sit deeper than `maxDepth` replaced by `marker` (a container at
 * depth `maxDepth` keeps its scalars; its nested containers become the marker). Nothing is copied when the value is
 * within the limit; otherwise the containers down to the limit are copied in one pass and the input is left as it was.
 */
export function boundDepth<T>(value: T, maxDepth: number, marker: string): Bounded<T> {
  if (!isContainer(value) || jsonDepth(value, maxDepth) <= maxDepth) return { value, cut: false };
  const root = copyShallow(value);
  const stack: [Container, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    const slots = node as Record<string | number, unknown>;
    const keys: (string | number)[] = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
    for (const key of keys) {
      const child = slots[key];
      if (!isContainer(child)) continue;
      if (depth >= maxDepth) {
        slots[key] = marker;
        continue;
      }
      const copy = copyShallow(child);
      slots[key] = copy;
      stack.push([copy, depth + 1]);
    }
  }
  return { value: root as T, cut: true };
}

function copyShallow(node: Container): Container {
  return Array.isArray(node) ? [...node] : { ...node };
}
