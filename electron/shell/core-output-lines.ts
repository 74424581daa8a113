// The core's stdout and stderr, cut into lines for the shell's log. A runaway line is cut at a bound rather than
// held whole, so a core that prints without newlines cannot grow the shell's memory.

/** Longest line kept from the core's output. */
export const MAX_CORE_LINE = 16 * 1024;

/** A chunk reader that calls `onLine` for every complete (or over-long) line. */
export function coreOutputLines(onLine: (line: string) => void): (chunk: Buffer | string) => void {
  let rest = '';
  return (chunk) => {
    rest += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    let at: number;
    while ((at = rest.indexOf('\n')) >= 0) {
      onLine(rest.slice(0, Math.min(at, MAX_CORE_LINE)));
      rest = rest.slice(at + 1);
    }
    if (rest.length > MAX_CORE_LINE) {
      onLine(rest.slice(0, MAX_CORE_LINE));
      rest = '';
    }
  };
}
