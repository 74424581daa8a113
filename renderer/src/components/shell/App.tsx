import { ActionIcon, Alert, AppShell, Group, Loader, Text, Title, Tooltip, useMantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { formatRoute, routes } from '../../router/route';
import { useHashRoute } from '../../router/use-hash-route';
import { useStore } from '../../store';
import { selectCoreStatus } from '../../store/app-slice';
import { selectDialog, selectRoute, selectView } from '../../store/ui-slice';
import { VIEWS, viewById } from '../../views';
import { ElicitationHost } from '../elicitation/ElicitationHost';
import { AskHost } from '../gateway/AskHost';
import { useShallow } from 'zustand/react/shallow';
import { selectSelectedDetail } from '../../store/servers-slice';
import { Notices } from './Notices';
import { Announcer } from '../../ui/Announcer';
import { usePip } from '../../apps/pip-store';
import { Lazy, lazyNamed } from '../../ui/lazy';
import { ViewBoundary } from '../../ui/ViewBoundary';
import { SamplingHost } from '../sampling/SamplingHost';
import { cleanText } from '../../ui/text';

// Dialogs and the app-window page load when first opened.
const AppWindowView = lazyNamed(() => import('../../apps/AppWindowView'), 'AppWindowView');
const ServerDialog = lazyNamed(() => import('../servers/ServerDialog'), 'ServerDialog');
const RemoveDialog = lazyNamed(() => import('../servers/RemoveDialog'), 'RemoveDialog');
const ImportDialog = lazyNamed(() => import('../import/ImportDialog'), 'ImportDialog');
const ExportDialog = lazyNamed(() => import('../import/ExportDialog'), 'ExportDialog');
const RegistryDialog = lazyNamed(() => import('../registry/RegistryDialog'), 'RegistryDialog');
// The dock (and the app runtime it brings) loads only once an app goes picture-in-picture.
const PipDock = lazyNamed(() => import('../../apps/PipDock'), 'PipDock');

function Dialogs() {
  const dialog = useStore(selectDialog);
  const detail = useStore(useShallow(selectSelectedDetail));
  switch (dialog.kind) {
    case 'addServer':
      return <ServerDialog />;
    case 'editServer':
      return detail?.id === dialog.id ? <ServerDialog existing={detail.config} /> : null;
    case 'removeServer':
      return <RemoveDialog id={dialog.id} />;
    case 'import':
      return <ImportDialog />;
    case 'export':
      return <ExportDialog />;
    case 'install':
    case 'installPaste':
    case 'registrySources':
    case 'registryUpdate':
      return <RegistryDialog dialog={dialog} />;
    case 'none':
      return null;
  }
}

/** Light/dark switch; the default follows the OS. */
function ColorSchemeToggle() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const dark = colorScheme === 'dark' || (colorScheme === 'auto' && window.matchMedia?.('(prefers-color-scheme: dark)').matches);
  const label = dark ? 'Use the light theme' : 'Use the dark theme';
  return (
    <Tooltip label={label}>
      <ActionIcon variant="default" size="lg" aria-label={label} onClick={() => setColorScheme(dark ? 'light' : 'dark')}>
        {dark ? <IconSun size={18} aria-hidden /> : <IconMoon size={18} aria-hidden />}
      </ActionIcon>
    </Tooltip>
  );
}

/** The top-level navigation: real links to each view's deep link. */
function MainNav({ current }: { current: string }) {
  return (
    <Group component="nav" aria-label="Views" gap={4} wrap="nowrap">
      {VIEWS.map((v) => {
        const Icon = v.icon;
        const active = v.id === current;
        return (
          <a
            key={v.id}
            href={formatRoute(routes.view(v.id))}
            className="sb-nav-link mantine-focus-auto"
            data-active={active || undefined}
            aria-current={active ? 'page' : undefined}
            title={v.label}
          >
            <Icon size={18} stroke={1.7} aria-hidden />
            <span className="sb-nav-label">{v.label}</span>
          </a>
        );
      })}
    </Group>
  );
}

/**
 * The first tab stop: jumps past the header and the navigation to the view's content. It moves focus itself (a
 * #fragment would be taken for a route).
 */
function SkipLink() {
  return (
    <a
      href="#main-content"
      className="sb-skip-link"
      onClick={(e) => {
        e.preventDefault();
        document.getElementById('main-content')?.focus();
      }}
    >
      Skip to content
    </a>
  );
}

/** A short line in the header while the core restarts (it takes a second or two); nothing otherwise. */
function CoreRestartingLine() {
  const status = useStore(selectCoreStatus);
  if (status?.state !== 'restarting') return null;
  return (
    <Text role="status" c="orange" fw={600} fz="sm" title={status.reason ?? ''}>
      Switchboard&apos;s core stopped; restarting…
    </Text>
  );
}

/** When the shell gave up on the core: why, and where the log is, in full above the view. */
function CoreFailedAlert() {
  const status = useStore(selectCoreStatus);
  if (status?.state !== 'failed') return null;
  return (
    <Alert color="red" variant="light" role="alert" mb="md" title="Switchboard's core stopped and could not be restarted">
      {cleanText(status.reason ?? 'unknown reason')}
      {status.logFile ? `. Its last words are in ${status.logFile}. ` : '. '}
      Quit Switchboard and start it again.
    </Alert>
  );
}

/** The header: the app's name, the views' navigation, then status lines (`children`) and the theme switch. */
function ShellHeader({ current, children }: { current: string; children?: ReactNode }) {
  return (
    <AppShell.Header px="md">
      <Group h="100%" justify="space-between" wrap="nowrap" gap="md">
        <Group gap="lg" wrap="nowrap">
          <Text component="span" fw={700} fz="lg">
            Switchboard
          </Text>
          <MainNav current={current} />
        </Group>
        <Group gap="sm" wrap="nowrap">
          {children}
          <ColorSchemeToggle />
        </Group>
      </Group>
    </AppShell.Header>
  );
}

/** The line shown while the bridge connects; `main` when it is the whole page (an app's own window). */
function Connecting({ main = false }: { main?: boolean }) {
  return (
    <Group {...(main ? { component: 'main' as const } : {})} justify="center" p="xl" aria-busy="true">
      <Loader size="sm" aria-hidden />
      <Text>Connecting to the Switchboard core…</Text>
    </Group>
  );
}

/** The app shell: header with navigation, the current view, notices, dialogs. */
export function App() {
  const pipShown = usePip((s) => s.pip !== null);
  const bridgeState = useStore((s) => s.bridgeState);
  const bridgeError = useStore((s) => s.bridgeError);
  const view = viewById(useStore(selectView));
  const routeKey = useStore((s) => formatRoute(s.route));
  const route = useStore(selectRoute);
  useHashRoute();
  const navbar = view.navbar;
  const layout = {
    header: { height: 56 },
    ...(navbar ? { navbar: { width: { base: 250, lg: 300 }, breakpoint: 0 } } : {}),
    padding: 'md',
  } as const;

  // Nothing that talks to the core mounts before the bridge is up: a view opened during start-up would
  // otherwise call the bridge before it is connected. The page's own frame (header, navigation, the view's side
  // panel) paints at once, so the window has its layout while the core is still loading.
  if (bridgeState === 'connecting') {
    if (route.view === 'app') return <Connecting main />;
    return (
      // The same elements in the same places as the connected page below, so the header and its navigation are kept
      // (not mounted afresh) when the bridge comes up.
      <AppShell {...layout}>
        <SkipLink />
        <ShellHeader current={view.id} />
        {navbar && <AppShell.Navbar aria-label={`${view.label} navigation`} aria-busy="true" />}
        <AppShell.Main className="sb-main" id="main-content" tabIndex={-1}>
          <Connecting />
        </AppShell.Main>
      </AppShell>
    );
  }
  if (bridgeState === 'failed' || bridgeState === 'stale') {
    return (
      <main>
        <Alert
          color={bridgeState === 'stale' ? 'yellow' : 'red'}
          title={
            <Title order={1} size="h3">
              {bridgeState === 'stale' ? 'This link is from an earlier run' : 'Switchboard cannot start'}
            </Title>
          }
          m="xl"
          role="alert"
        >
          {bridgeError}
        </Alert>
      </main>
    );
  }
  // One call's MCP App on a page of its own ("open in its own window").
  if (route.view === 'app')
    return (
      <Lazy>
        <AppWindowView callId={route.segments[0]} />
      </Lazy>
    );
  return (
    <AppShell {...layout}>
      <SkipLink />
      <ShellHeader current={view.id}>
        <CoreRestartingLine />
        {bridgeState === 'lost' && (
          <Text role="alert" c="red" fw={600} fz="sm">
            Connection to the Switchboard core was lost. Reload the page.
          </Text>
        )}
      </ShellHeader>
      {navbar && <AppShell.Navbar aria-label={`${view.label} navigation`}>{navbar()}</AppShell.Navbar>}
      <AppShell.Main className="sb-main" id="main-content" tabIndex={-1}>
        <CoreFailedAlert />
        <Notices />
        <ViewBoundary resetKey={routeKey}>
          <Lazy>{view.main()}</Lazy>
        </ViewBoundary>
      </AppShell.Main>
      <ViewBoundary resetKey={routeKey}>
        <Lazy quiet>
          <Dialogs />
        </Lazy>
      </ViewBoundary>
      <ElicitationHost />
      <SamplingHost />
      <AskHost />
      {pipShown && (
        <Lazy quiet>
          <PipDock />
        </Lazy>
      )}
      <Announcer />
    </AppShell>
  );
}
