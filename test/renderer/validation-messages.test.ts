// Human argument validation messages, from the real eval-free validator's errors.
import type { RJSFSchema } from '@rjsf/utils';
import { describe, expect, it } from 'vitest';
import { cspValidator } from '../../renderer/src/components/tools/csp-validator';
import { fieldLabel, humanMessage } from '../../renderer/src/lib/validation-messages';

const schema = {
  type: 'object',
  required: ['a', 'title', 'count'],
  properties: {
    a: { type: 'number' },
    title: { type: 'string', title: 'Report title', minLength: 3 },
    count: { type: 'integer', minimum: 1, maximum: 10 },
    email: { type: 'string', format: 'email' },
    size: { type: 'string', enum: ['s', 'm', 'l'] },
    tags: { type: 'array', items: { type: 'string', maxLength: 4 }, minItems: 2 },
    owner: { $ref: '#/$defs/person' },
  },
  $defs: { person: { type: 'object', required: ['name'], properties: { name: { type: 'string', title: 'Owner name' } } } },
} as const;

function messages(data: unknown): string[] {
  const { errors } = cspValidator.validateFormData(data, schema as unknown as RJSFSchema);
  return errors.map((e) => humanMessage(e, schema as unknown as Record<string, unknown>)).sort();
}

describe('human validation messages', () => {
  it('names the missing field in plain words', () => {
    expect(messages({})).toEqual(['Enter a value for Report title', 'Enter a value for a', 'Enter a value for count']);
  });

  it('explains type, range, length, format, enum, items and nested required fields', () => {
    const found = messages({
      a: 'x',
      title: 'ab',
      count: 0,
      email: 'not-an-email',
      size: 'xl',
      tags: ['toolong'],
      owner: {},
    });
    expect(found).toEqual(
      [
        'Enter a number for a',
        'Enter at least 3 characters for Report title',
        'Enter 1 or more for count',
        'Enter an email address for email',
        'Choose s, m or l for size',
        'Use at most 4 characters for item 1 of tags',
        'Add at least 2 items to tags',
        'Enter a value for Owner name',
      ].sort(),
    );
    expect(messages({ a: 1, title: 'abc', count: 11 })).toEqual(['Enter 10 or less for count']);
    expect(messages({ a: 1, title: 'abc', count: 2.5 })).toEqual(['Enter a whole number for count']);
  });

  it('labels paths by title, name or array position', () => {
    const s = schema as unknown as Record<string, unknown>;
    expect(fieldLabel(s, '.title')).toBe('Report title');
    expect(fieldLabel(s, '.owner.name')).toBe('Owner name');
    expect(fieldLabel(s, '.tags.1')).toBe('item 2 of tags');
    expect(fieldLabel(s, '')).toBe('the arguments');
  });
});
