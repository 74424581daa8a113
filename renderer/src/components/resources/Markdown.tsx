// Markdown previews through react-markdown (GFM tables, task lists, strikethrough): raw HTML is skipped, images are
// never loaded (their address is shown), links are shown with their address and open only on a click, through the
// core's safe opener, and only for http(s).
import { Anchor, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { useStore } from '../../store';
import { cleanText } from '../../ui/text';

/** True for an http(s) URL the safe opener may be asked to open. */
export function isWebLink(href: string | undefined): href is string {
  if (!href) return false;
  try {
    const u = new URL(href);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

function Link({ href, children }: { href?: string | undefined; children?: ReactNode }) {
  const openLink = useStore((s) => s.openLink);
  if (!isWebLink(href)) {
    return (
      <Text span inherit title="Only http and https links can be opened">
        {children}
        {href ? ` (${cleanText(href)})` : ''}
      </Text>
    );
  }
  return (
    <>
      <Anchor
        component="button"
        type="button"
        inherit
        onClick={() => void openLink(href)}
        title={`Open ${href} in your browser`}
        style={{ verticalAlign: 'baseline' }}
      >
        {children}
      </Anchor>
      <Text span inherit c="dimmed" size="xs">
        {` (${cleanText(href)})`}
      </Text>
    </>
  );
}

/** A Markdown heading drawn as text with the heading role at `level` (below the page's own headings). */
function heading(fw: number, size: 'sm' | 'md' | 'lg', level: number) {
  return function Heading({ children }: { children?: ReactNode }) {
    return (
      <Text fw={fw} size={size} my="xs" role="heading" aria-level={level}>
        {children}
      </Text>
    );
  };
}

const components: Components = {
  a: ({ href, children }) => <Link href={href}>{children}</Link>,
  img: ({ alt, src }) => (
    <Text span c="dimmed" size="sm" className="sb-md-image">
      {`[image not loaded: ${cleanText(alt) || 'untitled'}${typeof src === 'string' && src ? ` — ${cleanText(src)}` : ''}]`}
    </Text>
  ),
  // Headings inside a preview must not compete with the page's outline.
  h1: heading(700, 'lg', 3),
  h2: heading(700, 'md', 4),
  h3: heading(600, 'md', 5),
  h4: heading(600, 'sm', 6),
  h5: heading(600, 'sm', 6),
  h6: heading(600, 'sm', 6),
};

/** Renders Markdown text as inert elements (no HTML, no network). */
export function Markdown({ text }: { text: string }) {
  return (
    <div className="sb-markdown" data-testid="markdown">
      <ReactMarkdown remarkPlugins={[remarkGfm]} skipHtml components={components} urlTransform={(url) => url}>
        {cleanText(text)}
      </ReactMarkdown>
    </div>
  );
}
