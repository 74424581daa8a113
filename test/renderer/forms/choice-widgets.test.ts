// The generated form's choice widgets, drawn to HTML by React's server renderer with the real rjsf form and Mantine:
// a set of enum values as checkboxes and a radio group, each option with its id, encoded value and label, the group
// with its label and description.
import { MantineProvider } from '@mantine/core';
import Form from '@rjsf/core';
import validator from '@rjsf/validator-ajv8';
import { createElement, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { widgets } from '../../../renderer/src/forms/widgets';

const html = (el: ReactElement): string => renderToStaticMarkup(createElement(MantineProvider, null, el));

describe('choice widgets', () => {
  it('draw a set of enum values as checkboxes and a one-of as radio buttons, each option with its id and value', () => {
    const out = html(
      createElement(Form, {
        schema: {
          type: 'object',
          properties: {
            tags: {
              type: 'array',
              title: 'Tags',
              description: 'Pick some',
              uniqueItems: true,
              items: { type: 'string', enum: ['a', 'b'] },
            },
            size: { type: 'string', title: 'Size', enum: ['s', 'm', 'l'] },
          },
        },
        uiSchema: { size: { 'ui:widget': 'radio' } },
        formData: { tags: ['b'], size: 'm' },
        validator,
        widgets,
      }),
    );
    const boxes = [...out.matchAll(/<input[^>]*type="checkbox"[^>]*>/g)].map((m) => m[0]);
    expect(boxes).toHaveLength(2);
    expect(boxes[0]).toContain('id="root_tags-0"');
    expect(boxes[0]).toContain('value="0"');
    expect(boxes[0]).not.toContain('checked');
    expect(boxes[1]).toContain('id="root_tags-1"');
    expect(boxes[1]).toContain('checked');
    const radios = [...out.matchAll(/<input[^>]*type="radio"[^>]*>/g)].map((m) => m[0]);
    expect(radios).toHaveLength(3);
    expect(radios.map((r) => /id="([^"]+)"/.exec(r)?.[1])).toEqual(['root_size-0', 'root_size-1', 'root_size-2']);
    expect(radios.filter((r) => r.includes('checked'))).toHaveLength(1);
    expect(radios[1]).toContain('checked');
    expect(out).toContain('Pick some');
    expect(out).toMatch(/<label[^>]*>Tags/);
    expect(out).toMatch(/<label[^>]*>Size/);
  });
});
