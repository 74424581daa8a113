// Mounts the component library: theme, light/dark following the OS (the person can override it), the CSP nonce
// for the library's <style> elements.
import '@mantine/core/styles.css';
import { MantineProvider } from '@mantine/core';
import type { ReactNode } from 'react';
import { contrastResolver } from './contrast';
import { styleNonce } from './style-nonce';
import { theme } from './theme';

/** Wraps the app in the component library's provider. */
export function MantineRoot({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="auto" getStyleNonce={styleNonce} cssVariablesResolver={contrastResolver}>
      {children}
    </MantineProvider>
  );
}
