// Shows read resource parts safely: text views are text (also binary parts whose MIME type is text), Markdown is
// rendered without HTML or network, HTML and SVG are source, images only after the core's magic-byte and size
// checks, other blobs as size + MIME type with a Save button.
import { Badge, Box, Button, Group, Image, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import type { ResourcePart } from '../../../../shared/domains/resources';
import { saveFile } from '../../lib/save-file';
import { CodeBlock } from '../../ui/CodeBlock';
import { cleanText, sizeLabel } from '../../ui/text';
import { Lazy, lazyNamed } from '../../ui/lazy';

// The Markdown renderer (react-markdown, remark-gfm) loads when a Markdown part is first shown formatted.
const Markdown = lazyNamed(() => import('./Markdown'), 'Markdown');

const TEXT_MIME = /^(text\/[\w.+-]+|application\/([\w.+-]+\+)?(json|xml|yaml|x-yaml|toml|javascript|x-sh|sql|csv|x-ndjson))(\s*;.*)?$/i;
const MAX_TEXT_BLOB = 1024 * 1024;

function bytesOf(part: ResourcePart): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(part.blobData ?? part.imageData ?? ''), (c) => c.charCodeAt(0));
}

/** The text of a binary part whose MIME type says it is text (UTF-8, replacement characters for bad bytes). */
export function blobText(part: ResourcePart): string | null {
  if (part.kind !== 'blob' || part.blobData === undefined || !part.mimeType || !TEXT_MIME.test(part.mimeType)) return null;
  const bytes = bytesOf(part);
  if (bytes.length > MAX_TEXT_BLOB) return null;
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

function save(part: ResourcePart): void {
  const name = (part.uri.split(/[/?#]/).filter(Boolean).pop() ?? 'resource').replace(/[^\w.-]/g, '_');
  saveFile(name, bytesOf(part), 'application/octet-stream');
}

const LABELS = {
  text: 'Text',
  json: 'JSON',
  markdown: 'Markdown',
  html: 'HTML source',
  svg: 'SVG source',
  image: 'Image',
  blob: 'Binary',
} as const;

function Part({ part: p }: { part: ResourcePart }) {
  const [view, setView] = useState<'formatted' | 'source'>('formatted');
  const decoded = blobText(p);
  const label = decoded !== null ? 'Text' : LABELS[p.kind];
  return (
    <Paper component="article" withBorder p="sm" aria-label={`${label}: ${cleanText(p.uri)}`}>
      <Group justify="space-between" gap="xs" mb="xs" wrap="nowrap">
        <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
          {/* The chips keep their words; the address beside them is what gets cut. */}
          <Badge size="sm" variant="light" radius="sm" tt="none" className="sb-keep">
            {label}
          </Badge>
          {p.mimeType && (
            <Badge
              size="sm"
              variant="outline"
              color="gray"
              radius="sm"
              tt="none"
              className="sb-keep"
              maw={240}
              title={cleanText(p.mimeType)}
            >
              {cleanText(p.mimeType)}
            </Badge>
          )}
          <Text size="xs" c="dimmed" className="sb-mono" truncate>
            {cleanText(p.uri)}
          </Text>
        </Group>
        {p.kind === 'markdown' && (
          <SegmentedControl
            size="xs"
            value={view}
            onChange={(v) => setView(v as 'formatted' | 'source')}
            data={[
              { value: 'formatted', label: 'Formatted' },
              { value: 'source', label: 'Source' },
            ]}
            aria-label="Markdown view"
          />
        )}
      </Group>
      {(p.kind === 'html' || p.kind === 'svg') && (
        <Text size="xs" c="dimmed" mb="xs">
          Shown as source: markup from a server is never rendered or run.
        </Text>
      )}
      {p.kind === 'markdown' && view === 'formatted' && (
        <Lazy>
          <Markdown text={p.text ?? ''} />
        </Lazy>
      )}
      {(p.kind === 'text' ||
        p.kind === 'json' ||
        p.kind === 'html' ||
        p.kind === 'svg' ||
        (p.kind === 'markdown' && view === 'source')) && <CodeBlock data-testid="resource-text">{p.text ?? ''}</CodeBlock>}
      {decoded !== null && <CodeBlock data-testid="resource-text">{decoded}</CodeBlock>}
      {p.kind === 'image' && p.imageData && p.imageMime && (
        <Box component="figure" m={0}>
          <Image alt={`Image ${cleanText(p.uri)}`} src={`data:${p.imageMime};base64,${p.imageData}`} maw="100%" w="auto" fit="contain" />
          <Text component="figcaption" size="xs" c="dimmed" mt={4}>
            {p.imageMime}, {p.imageSize ? `${p.imageSize.width}×${p.imageSize.height}, ` : ''}
            {sizeLabel(p.blobBytes)}
          </Text>
        </Box>
      )}
      {p.kind === 'blob' && decoded === null && (
        <Stack gap="xs">
          <Text size="sm" c="dimmed">
            {cleanText(p.notice) || `Binary content, ${sizeLabel(p.blobBytes)}`}
          </Text>
          <Group gap="sm">
            <Text size="sm">
              {cleanText(p.mimeType) || 'unknown type'}, {sizeLabel(p.blobBytes)}
            </Text>
            {p.blobData !== undefined && (
              <Button size="xs" leftSection={<IconDownload size={14} aria-hidden />} onClick={() => save(p)}>
                Save to file
              </Button>
            )}
          </Group>
        </Stack>
      )}
      {decoded !== null && p.blobData !== undefined && (
        <Group mt="xs">
          <Button size="xs" leftSection={<IconDownload size={14} aria-hidden />} onClick={() => save(p)}>
            Save to file
          </Button>
        </Group>
      )}
    </Paper>
  );
}

/** All parts of one read. */
export function ResourcePreview({ parts }: { parts: ResourcePart[] }) {
  return (
    <Stack gap="sm">
      {parts.map((p, i) => (
        <Part key={`${p.uri}-${i}`} part={p} />
      ))}
    </Stack>
  );
}
