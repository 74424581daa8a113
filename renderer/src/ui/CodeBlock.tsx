// Preformatted text (results, schemas, logs of a server): wraps long lines, never renders markup.
import { Box, type BoxProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { cleanText } from './text';

/** Props of CodeBlock. */
export interface CodeBlockProps extends BoxProps {
  /** The text (server text is cleaned of control characters). */
  children: string | ReactNode;
  /** Longest height before the block scrolls on its own (none by default). */
  maxHeight?: number | string;
  /** Test id. */
  'data-testid'?: string;
  /** Accessible name, when the block is a focusable scroll region. */
  'aria-label'?: string;
}

/** A monospace block with wrapping and an optional own scroll (then keyboard-focusable). */
export function CodeBlock({ children, maxHeight, ...rest }: CodeBlockProps) {
  const scrolls = maxHeight !== undefined;
  return (
    <Box component="pre" className="sb-code" {...(scrolls ? { tabIndex: 0, style: { maxHeight, overflow: 'auto' } } : {})} {...rest}>
      {typeof children === 'string' ? cleanText(children) : children}
    </Box>
  );
}
