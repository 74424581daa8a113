// The Markdown preview's headings, drawn to HTML by React's server renderer with Mantine: text with the heading role
// below the page's own outline, never heading elements.
import { MantineProvider } from '@mantine/core';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown } from '../../../../renderer/src/components/resources/Markdown';

const html = (text: string): string => renderToStaticMarkup(createElement(MantineProvider, null, createElement(Markdown, { text })));

describe('Markdown headings', () => {
  it('are text with the heading role, three levels below the page (h4 to h6 all at level 6)', () => {
    const out = html('# One\n\n## Two\n\n### Three\n\n#### Four\n\n##### Five\n\n###### Six');
    const levels = [...out.matchAll(/role="heading" aria-level="(\d)"[^>]*>([A-Za-z]+)</g)].map((m) => [m[2], m[1]]);
    expect(levels).toEqual([
      ['One', '3'],
      ['Two', '4'],
      ['Three', '5'],
      ['Four', '6'],
      ['Five', '6'],
      ['Six', '6'],
    ]);
    expect(out).not.toMatch(/<h[1-6]/);
  });
});
