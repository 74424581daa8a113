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

const components: Components = {
  a: ({ href, children }) => <Link href={href}>{children}</Link>,
  img: ({ alt, src }) => (
    <Text span c="dimmed" size="sm" className="sb-md-image">
      {`[image not loaded: ${cleanText(alt) || 'untitled'}${typeof src === 'string' && src ? ` — ${cleanText(src)}` : ''}]`}
    </Text>
  ),
  // Headings inside a preview must not compete with the page's outline.
  h1: ({ children }) => (
    <Text fw={700} size="lg" my="xs" role="heading" aria-level={3}>
      {children}
    </Text>
  ),
  h2: ({ children }) => (
    <Text fw={700} size="md" my="xs" role="heading" aria-level={4}>
      {children}
    </Text>
  ),
  h3: ({ children }) => (
    <Text fw={600} size="md" my="xs" role="heading" aria-level={5}>
      {children}
    </Text>
  ),
  h4: ({ children }) => (
    <Text fw={600} size="sm" my="xs" role="heading" aria-level={6}>
      {children}
    </Text>
  ),
  h5: ({ children }) => (
    <Text fw={600} size="sm" my="xs" role="heading" aria-level={6}>
      {children}
    </Text>
  ),
  h6: ({ children }) => (
    <Text fw={600} size="sm" my="xs" role="heading" aria-level={6}>
      {children}
    </Text>
  ),
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
