// Code that a view or dialog needs is loaded when it is first shown, so the first view's script stays small:
// `lazyNamed` wraps a module's named component for React.lazy, `Lazy` shows a loader while it arrives.
import { Group, Loader, Text } from '@mantine/core';
import { lazy, Suspense, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';

/** React.lazy for a named export: `lazyNamed(() => import('./X'), 'X')`. */
export function lazyNamed<M, K extends keyof M>(load: () => Promise<M>, name: K): LazyComponent<M[K]> {
  return lazy(async () => ({ default: (await load())[name] as ComponentType<unknown> })) as LazyComponent<M[K]>;
}

/** The lazy form of a component type. */
type LazyComponent<C> = C extends ComponentType<infer P> ? LazyExoticComponent<ComponentType<P>> : never;

/** Suspense with the app's loader; `quiet` shows nothing while loading (a dialog or a host that is not yet open). */
export function Lazy({ children, quiet = false }: { children: ReactNode; quiet?: boolean }) {
  return (
    <Suspense
      fallback={
        quiet ? null : (
          <Group aria-busy="true" gap="xs" p="md">
            <Loader size="xs" aria-hidden />
            <Text>Loading…</Text>
          </Group>
        )
      }
    >
      {children}
    </Suspense>
  );
}
