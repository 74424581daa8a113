// Checks one call's outcome against its expectations (the command line's `run` and the History view's runner). Each assertion yields a result, held or not, with what was
// seen, so a report can say exactly what failed.
import { Validator, type Schema } from '@cfworker/json-schema';
import type { CallOutcome } from '../domains/calls.js';
import type { Expectations } from './collection.js';
import { parsePath, valueAt } from './json-path.js';

/** One assertion's verdict. */
export interface AssertionResult {
  /** Which assertion (e.g. `textContains "hi"`). */
  name: string;
  /** Whether it held. */
  passed: boolean;
  /** What was found instead, when it failed. */
  message?: string;
}

/** What the assertions look at beyond the outcome. */
export interface Evidence {
  /** The raw structuredContent of the result, when there was one. */
  structuredContent?: unknown;
  /** The tool's declared output schema, when it has one. */
  outputSchema?: Record<string, unknown>;
}

const show = (v: unknown): string => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
};

/** Deep equality of JSON values (what structuredContent and a collection's expected values are). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every(
      (k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
    )
  );
}

/** Every assertion of `expect` on this outcome, in a fixed order. */
export function checkCall(expect: Expectations, outcome: CallOutcome, evidence: Evidence): AssertionResult[] {
  const results: AssertionResult[] = [];
  const check = (name: string, passed: boolean, message: string): void =>
    void results.push(passed ? { name, passed } : { name, passed, message });
  // A result whose text only repeats its structured content is presented as that content: text checks read it.
  const text = outcome.presentation.text !== '' ? outcome.presentation.text : (outcome.presentation.structured ?? '');

  const status = expect.status ?? 'ok';
  check(
    `status ${status}`,
    outcome.status === status,
    `status was ${outcome.status}${outcome.error ? ` (${outcome.error.code}: ${outcome.error.message})` : ''}`,
  );
  if (expect.noIsError) check('no isError', !outcome.presentation.isError, `the result is a tool error: ${text.slice(0, 200)}`);
  const contains = expect.textContains === undefined ? [] : [expect.textContains].flat();
  for (const needle of contains) check(`textContains ${show(needle)}`, text.includes(needle), `text was ${show(text)}`);
  if (expect.textMatches !== undefined) {
    let re: RegExp | undefined;
    try {
      re = new RegExp(expect.textMatches);
    } catch (err) {
      check(`textMatches /${expect.textMatches}/`, false, `not a valid regular expression: ${(err as Error).message}`);
    }
    if (re) check(`textMatches /${expect.textMatches}/`, re.test(text), `text was ${show(text)}`);
  }
  for (const [path, want] of Object.entries(expect.jsonPath ?? {})) {
    const name = `jsonPath ${path} equals ${show(want)}`;
    const segments = parsePath(path);
    if (!segments) {
      check(name, false, "the path is not one of $, .name, [index], ['name']");
      continue;
    }
    const got = valueAt(evidence.structuredContent, segments);
    check(
      name,
      got.found && jsonEqual(got.value, want),
      got.found ? `found ${show(got.value)}` : 'nothing at that path in structuredContent',
    );
  }
  if (expect.matchesOutputSchema) {
    const name = 'structuredContent matches the outputSchema';
    if (!evidence.outputSchema) check(name, false, 'the tool declares no outputSchema');
    else if (evidence.structuredContent === undefined) check(name, false, 'the result has no structuredContent');
    else {
      const verdict = new Validator(evidence.outputSchema as Schema, '2020-12', false).validate(evidence.structuredContent);
      check(
        name,
        verdict.valid,
        verdict.errors
          .map((e) => `${e.instanceLocation}: ${e.error}`)
          .slice(0, 5)
          .join('; '),
      );
    }
  }
  if (expect.maxDurationMs !== undefined)
    check(`duration < ${expect.maxDurationMs} ms`, outcome.durationMs < expect.maxDurationMs, `took ${outcome.durationMs} ms`);
  return results;
}

/** One collection call's outcome, as `switchboard run` reports it and the History runner shows it. */
export interface CallCheckResult {
  /** The call's name in the collection. */
  name: string;
  /** The tool that was called (or asked for, when it could not be found). */
  tool: string;
  /** ok, error, timeout, cancelled, or "not run" when the call could not be made. */
  status: string;
  /** How long the call took. */
  durationMs: number;
  /** Whether every assertion held. */
  passed: boolean;
  /** Each assertion, held or failed with what was seen. */
  assertions: AssertionResult[];
  /** Why the call could not be made at all (connection, unknown tool, the core refused it). */
  error?: string;
}
