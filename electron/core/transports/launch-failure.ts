// Whether a stdio server that ended during the server/discover probe could have been refusing the probe at all.
// A legacy server that reads the unknown request and exits deserves the retry with initialize; a launch that
// failed (npm's 404, a missing module, a stack trace before it read anything, an exit before our first message
// reached it) would only fail the same way a second time, so it is not started again.

/** What the transport saw of a process that ended. */
export interface LaunchFacts {
  /** The last stderr lines. */
  stderrTail: readonly string[];
  /** stderr written before Switchboard's first message was written to the process. */
  stderrBeforeInput: string;
  /** The process was gone before Switchboard's first message reached it (exit before the write, or EPIPE). */
  exitedBeforeInput: boolean;
}

/** Lines that say the launch itself failed, whenever they were written (with what they mean). */
const LAUNCH_FAILURES: readonly (readonly [RegExp, string])[] = [
  [/\bnpm (?:ERR!|error) (?:code )?E404\b|\b404 Not Found\b.*registry|is not in this registry/i, 'npm could not find the package (404)'],
  [/Cannot find (?:module|package)\b|ERR_MODULE_NOT_FOUND|\bMODULE_NOT_FOUND\b/, 'a module it needs is missing'],
  [/ModuleNotFoundError|No module named\b/, 'a Python module it needs is missing'],
  [/error while loading shared libraries|exec format error/i, 'its program could not be loaded'],
  [/\bnpm (?:ERR!|error)\b/, 'npm failed before the server started'],
];

/** A Node stack trace through the module loader's own (synchronous) frames: the program crashed while loading. */
const NODE_LOAD_FRAME = /^\s+at (?!async )\S.*\(node:internal\/modules\//;

/** Stack trace or panic starts (Node, Python, Go, Rust). */
const STACK_TRACE = /^\s+at \S|^Traceback \(most recent call last\)|^panic: |^thread '.*' panicked/m;

/** Why the process cannot have been refusing the probe, or undefined when it may have been (then it is retried). */
export function launchFailureReason(facts: LaunchFacts): string | undefined {
  if (facts.exitedBeforeInput) return "it ended before Switchboard's first message reached it";
  for (const line of facts.stderrTail) {
    for (const [pattern, meaning] of LAUNCH_FAILURES) if (pattern.test(line)) return `${meaning} (“${line.trim().slice(0, 200)}”)`;
  }
  if (facts.stderrTail.some((line) => NODE_LOAD_FRAME.test(line))) return 'it crashed while loading, before reading anything';
  if (STACK_TRACE.test(facts.stderrBeforeInput)) return 'it failed with a stack trace before reading anything';
  return undefined;
}
