// The helpers that let exactOptionalPropertyTypes hold: a patch clears what it gives `undefined`, props keep only
// what is set, and a JSON value parsed with an optional field stays without it.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { applyPatch, definedFields, parseJsonValue } from '../../shared/optional-fields.js';

describe('optional fields', () => {
  it('applies a patch: set fields replace, undefined ones are removed, the base is not changed', () => {
    const base: { a: number; b?: string; c?: boolean } = { a: 1, b: 'x' };
    const next = applyPatch(base, { b: undefined, c: true });
    expect(next).toEqual({ a: 1, c: true });
    expect('b' in next).toBe(false);
    expect(base).toEqual({ a: 1, b: 'x' });
  });

  it('keeps only the fields that are set, false and empty string included', () => {
    const out = definedFields({ label: undefined, required: false, placeholder: '', error: 'bad' });
    expect(out).toEqual({ required: false, placeholder: '', error: 'bad' });
    expect('label' in out).toBe(false);
  });

  it('parses JSON input with its optional fields absent, and refuses a wrong shape', () => {
    const schema = z.object({ id: z.string(), note: z.string().optional() });
    const parsed = parseJsonValue(schema, JSON.parse('{"id":"a"}'));
    expect(parsed).toEqual({ id: 'a' });
    expect('note' in parsed).toBe(false);
    expect(() => parseJsonValue(schema, { id: 1 })).toThrow();
  });
});
