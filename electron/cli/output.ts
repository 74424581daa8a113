// Everything the command writes. Server text is untrusted: lines for a terminal have every control, bidi and
// invisible character escaped (so no escape sequence reaches the terminal), and JSON has them as JSON escapes.
import { escapeAsJson } from '../../shared/untrusted-text.js';
import { escapeControl } from '../core/text.js';

/** Where the command writes (tests and the process pass the real streams). */
export interface Output {
  /** One line of results on stdout, control characters escaped. */
  line(text: string): void;
  /** One table row on stdout: each field escaped, the fields separated by tabs. */
  row(fields: string[]): void;
  /** One JSON value on one line of stdout. */
  json(value: unknown): void;
  /** One line of diagnostics on stderr, control characters escaped. */
  note(text: string): void;
}

/** Output to this process's stdout and stderr. */
export function processOutput(): Output {
  return {
    line: (text) => void process.stdout.write(`${escapeLines(text)}\n`),
    row: (fields) => void process.stdout.write(`${fields.map((f) => escapeControl(f)).join('\t')}\n`),
    json: (value) => void process.stdout.write(`${escapeAsJson(JSON.stringify(value))}\n`),
    note: (text) => void process.stderr.write(`${escapeLines(text)}\n`),
  };
}

/** Multi-line text kept multi-line, each line made safe for a terminal. */
export function escapeLines(text: string): string {
  return text
    .split('\n')
    .map((l) => escapeControl(l))
    .join('\n');
}
