// What `switchboard run` prints: a readable summary, one JSON line per call (--json), or JUnit XML (--reporter junit).
import type { CallCheckResult } from '../../../shared/collections/assertions.js';

/** One call's result, with the suite (collection file) it came from. */
export interface CallResult extends CallCheckResult {
  suite: string;
}

/** The readable summary lines. */
export function summaryLines(results: CallResult[]): string[] {
  const lines: string[] = [];
  for (const r of results) {
    lines.push(`${r.passed ? 'PASS' : 'FAIL'}  ${r.suite} › ${r.name} (${r.durationMs} ms)`);
    if (r.error !== undefined) lines.push(`      ${r.error}`);
    for (const a of r.assertions) if (!a.passed) lines.push(`      ✗ ${a.name}: ${a.message ?? ''}`);
  }
  const failed = results.filter((r) => !r.passed).length;
  lines.push(`${results.length - failed} passed, ${failed} failed, ${results.length} calls`);
  return lines;
}

const xml = (s: string): string =>
  s
    // Characters XML 1.0 cannot carry at all, server text included.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

/** JUnit XML: one testsuite per collection, one testcase per call, one failure element per failed call. */
export function junitXml(results: CallResult[]): string {
  const suites = new Map<string, CallResult[]>();
  for (const r of results) suites.set(r.suite, [...(suites.get(r.suite) ?? []), r]);
  const total = results.length;
  const failures = results.filter((r) => !r.passed).length;
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="switchboard" tests="${total}" failures="${failures}">`];
  for (const [suite, cases] of suites) {
    const time = cases.reduce((t, c) => t + c.durationMs, 0) / 1000;
    out.push(
      `  <testsuite name="${xml(suite)}" tests="${cases.length}" failures="${cases.filter((c) => !c.passed).length}" time="${time}">`,
    );
    for (const c of cases) {
      out.push(`    <testcase classname="${xml(suite)}" name="${xml(c.name)}" time="${c.durationMs / 1000}">`);
      if (!c.passed) {
        const failed = c.assertions.filter((a) => !a.passed);
        const message = c.error ?? failed.map((a) => a.name).join('; ');
        const body = [c.error, ...failed.map((a) => `${a.name}: ${a.message ?? ''}`)].filter((l) => l !== undefined).join('\n');
        out.push(`      <failure message="${xml(message)}">${xml(body)}</failure>`);
      }
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}
