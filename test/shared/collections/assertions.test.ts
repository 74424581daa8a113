// Each assertion kind on a made-up outcome: held, and not held with what was found.
import { describe, expect, it } from 'vitest';
import type { CallOutcome } from '../../../shared/domains/calls.js';
import { checkCall } from '../../../shared/collections/assertions.js';
import { parsePath, valueAt } from '../../../shared/collections/json-path.js';

function outcome(over: Partial<CallOutcome> = {}, text = 'Temperature 36, drizzle'): CallOutcome {
  return {
    callId: 'c1',
    status: 'ok',
    durationMs: 40,
    presentation: { isError: false, text, truncated: false, media: [], notices: [], links: [], resources: [] },
    ...over,
  };
}
const schema = { type: 'object', properties: { t: { type: 'number' } }, required: ['t'] };

describe('checkCall', () => {
  it('holds every assertion on a matching outcome', () => {
    const results = checkCall(
      {
        status: 'ok',
        noIsError: true,
        textContains: ['36', 'drizzle'],
        textMatches: '^Temp',
        jsonPath: { '$.t': 36, '$.list[1]': 'b' },
        matchesOutputSchema: true,
        maxDurationMs: 41,
      },
      outcome(),
      { structuredContent: { t: 36, list: ['a', 'b'] }, outputSchema: schema },
    );
    expect(results.filter((r) => !r.passed)).toEqual([]);
    expect(results).toHaveLength(9);
  });

  it('says what was found when assertions do not hold', () => {
    const results = checkCall(
      { textContains: 'sun', jsonPath: { '$.t': 40, '$.missing': 1 }, matchesOutputSchema: true, maxDurationMs: 40 },
      outcome({ status: 'error', error: { code: 'tool_error', message: 'bad' } }),
      { structuredContent: { t: 'hot' }, outputSchema: schema },
    );
    const failed = Object.fromEntries(results.filter((r) => !r.passed).map((r) => [r.name, r.message]));
    expect(failed['status ok']).toBe('status was error (tool_error: bad)');
    expect(failed['textContains "sun"']).toContain('Temperature 36');
    expect(failed['jsonPath $.t equals 40']).toBe('found "hot"');
    expect(failed['jsonPath $.missing equals 1']).toBe('nothing at that path in structuredContent');
    expect(failed['structuredContent matches the outputSchema']).toContain('/t');
    expect(failed['duration < 40 ms']).toBe('took 40 ms');
  });

  it('fails an output-schema check when the tool declares none', () => {
    const [, schemaCheck] = checkCall({ matchesOutputSchema: true }, outcome(), { structuredContent: {} });
    expect(schemaCheck).toMatchObject({ passed: false, message: 'the tool declares no outputSchema' });
  });
});

describe('json path subset', () => {
  it('reads names, quoted names and indexes, and refuses the rest', () => {
    expect(parsePath(`$.a['b c'][2]`)).toEqual(['a', 'b c', 2]);
    expect(parsePath('$..a')).toBeNull();
    expect(parsePath('a.b')).toBeNull();
    expect(valueAt({ a: [1, { b: null }] }, ['a', 1, 'b'])).toEqual({ found: true, value: null });
    expect(valueAt({ a: [] }, ['a', 0])).toEqual({ found: false });
  });
});
