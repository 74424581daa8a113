// A call's MCP App where its result is shown: opening the launch (or the clear error in place of the app), the
// sandboxed frame, full screen and "open in its own window", the permission prompt, the link and download consents, what the app
// sent for the model, and the Inspector. Closing the view tears the app down. One link consent at a time: while one
// waits for the person, a further ui/open-link from the app is declined at once, so every request settles.
// Picture-in-picture hands the running app to the dock (`pip`), which stays on screen across views; its own view
// shows where it went, and the app comes back to that view, still running, when the person returns it inline.
import { ActionIcon, Alert, Button, Group, Loader, Paper, Text, Tooltip, useComputedColorScheme, useMantineTheme } from '@mantine/core';
import { useElementSize, useViewportSize } from '@mantine/hooks';
import {
  IconAppWindow,
  IconArrowsMaximize,
  IconArrowsMinimize,
  IconBug,
  IconExternalLink,
  IconPictureInPicture,
  IconPictureInPictureOff,
  IconRefresh,
  IconX,
} from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AppLaunch, AppLinkCheck } from '../../../shared/domains/apps';
import { escapeUnsafe } from '../../../shared/domains/catalog-text';
import { AppError } from '../../../shared/errors';
import { useStore } from '../store';
import { AppFrame, handOverApp, releaseApp, type AppEvent, type AppFrameHandle } from './AppFrame';
import { AppInspector } from './AppInspector';
import { AppPermissionPrompt } from './AppPermissionPrompt';
import { AppSidePanel } from './AppSidePanel';
import { buildHostContext, type AppDisplayMode } from './host-context';
import { DownloadConsentDialog } from './DownloadConsentDialog';
import { LinkConsentDialog } from './LinkConsentDialog';
import { MessageLog } from './message-log';
import { usePip } from './pip-store';
import { useAppDownloads } from './use-app-download';
import './apps.css';

/** Most an inline app may grow to (pixels). */
export const INLINE_MAX_HEIGHT = 1200;
/** The error an app gets for a link asked while another of its links waits for the person. */
export const LINK_WAITING = 'Another link from this app is already waiting for the person to answer';
/** Height of the app's title bar (pixels). */
const BAR_HEIGHT = 44;
/** Size of the picture-in-picture frame (pixels). */
export const PIP_SIZE = { width: 360, height: 220 } as const;
/** How long an app on its way back inline waits for its view before it is wound down. */
const RETURN_WAIT_MS = 3_000;

const ERROR_TITLES: Partial<Record<string, string>> = {
  app_invalid: 'This is not an MCP App',
  limit_exceeded: 'The app is too large',
  not_found: 'The app is not available',
};

/** Props of the app view. */
export interface AppViewProps {
  /** The finished call whose app to show. */
  callId: string;
  /** Own window or tab: the app fills the page. */
  standalone?: boolean;
  /** The picture-in-picture dock's view of the app it holds. */
  pip?: boolean;
}

type Phase =
  | { kind: 'opening' }
  | { kind: 'failed'; title: string; message: string }
  | { kind: 'open'; launch: AppLaunch; log: MessageLog; startedAt: number };

/** Shows one call's app. */
export function AppView({ callId, standalone = false, pip = false }: AppViewProps) {
  const openApp = useStore((s) => s.openApp);
  const appShell = useStore((s) => s.appShell);
  const closeApp = useStore((s) => s.closeApp);
  const openLink = useStore((s) => s.appOpenLink);
  const checkLink = useStore((s) => s.appCheckLink);
  const readResource = useStore((s) => s.appReadResource);
  const createMessage = useStore((s) => s.appCreateMessage);
  const openWindow = useStore((s) => s.openAppWindow);
  const version = useStore((s) => s.info?.version ?? '0.0.0');
  const route = useStore((s) => s.route);
  const navigate = useStore((s) => s.navigate);
  // Inline only: the app is in the dock now, or on its way back here.
  const elsewhere = usePip((s) => !pip && s.pip?.callId === callId);
  const comingBack = usePip((s) => !pip && s.returning?.callId === callId);
  const [appModes, setAppModes] = useState<string[] | undefined>(undefined);
  const [attempt, setAttempt] = useState(0);
  const [phase, setPhase] = useState<Phase>({ kind: 'opening' });
  const [running, setRunning] = useState<'starting' | 'running' | 'failed'>('starting');
  const [failure, setFailure] = useState<string | null>(null);
  const [initMs, setInitMs] = useState<number | null>(null);
  const [events, setEvents] = useState<AppEvent[]>([]);
  const [inspector, setInspector] = useState(false);
  const [fullscreen, setFullscreen] = useState(false);
  const [closed, setClosed] = useState(false);
  const [link, setLink] = useState<{ url: string; check: AppLinkCheck; answer: (open: boolean) => void } | null>(null);
  const frame = useRef<AppFrameHandle>(null);
  // The link consent in progress (checking, asking or opening) and how to decline it when the app goes away.
  const linkBusy = useRef(false);
  const declineLink = useRef<(() => void) | null>(null);
  // The launch a frame has taken charge of: the frame closes it once its app has wound down, even after this view
  // is gone (an app answering its teardown may still read or call on its server meanwhile).
  const framed = useRef<string | null>(null);
  // Set when the view goes away or reloads: a late request from a parked app is declined at once.
  const viewGone = useRef(false);
  // The app shown came from another view (the dock, or back from it): no launch of this view's own to open.
  const moved = useRef<'away' | 'here' | null>(null);

  // Open a launch for this call; close it in the core when the view goes away or reloads. An app moved here (into
  // the dock, or back from it) is the one already running: its frame is adopted, and closes its launch when it ends.
  useEffect(() => {
    viewGone.current = false;
    const moving = usePip.getState();
    const arriving = pip ? moving.pip : comingBack ? moving.returning : null;
    if (arriving) {
      moved.current = 'here';
      setPhase({ kind: 'open', launch: arriving.launch, log: arriving.log, startedAt: arriving.startedAt });
      setRunning('running');
      setFailure(null);
      if (!pip) moving.adopted(callId);
      return () => {
        viewGone.current = true;
        declineLink.current?.();
      };
    }
    if (elsewhere) {
      moved.current = 'away';
      return;
    }
    if (moved.current === 'away') {
      // The dock closed it.
      moved.current = null;
      setClosed(true);
      return;
    }
    if (moved.current === 'here') return;
    let live = true;
    let launchId: string | undefined;
    setPhase({ kind: 'opening' });
    setRunning('starting');
    setFailure(null);
    setInitMs(null);
    setEvents([]);
    openApp(callId).then(
      (launch) => {
        launchId = launch.launchId;
        if (live) setPhase({ kind: 'open', launch, log: new MessageLog(), startedAt: Date.now() });
        else void closeApp(launch.launchId);
      },
      (err: unknown) => {
        if (!live) return;
        const code = err instanceof AppError ? err.code : 'internal';
        setPhase({
          kind: 'failed',
          title: ERROR_TITLES[code] ?? 'The app failed to load',
          message: err instanceof AppError ? err.message : 'The app could not be loaded.',
        });
      },
    );
    return () => {
      live = false;
      viewGone.current = true;
      declineLink.current?.();
      if (launchId !== undefined && framed.current !== launchId) void closeApp(launchId);
    };
  }, [callId, attempt, openApp, closeApp, pip, elsewhere, comingBack]);

  const theme = useComputedColorScheme('light');
  const mantine = useMantineTheme();
  const { ref: body, width } = useElementSize();
  const viewport = useViewportSize();
  const displayMode: AppDisplayMode = pip ? 'pip' : standalone || fullscreen ? 'fullscreen' : 'inline';
  const fillHeight = Math.max(200, viewport.height - BAR_HEIGHT - (standalone ? 0 : 0));
  const height = useMemo(
    () =>
      displayMode === 'pip'
        ? { fixed: PIP_SIZE.height }
        : displayMode === 'fullscreen'
          ? { fixed: fillHeight }
          : { max: INLINE_MAX_HEIGHT },
    [displayMode, fillHeight],
  );
  // The modes the app declared are the only ones it is put in (an app that declared none takes all three).
  const allows = useCallback((mode: AppDisplayMode) => appModes === undefined || appModes.includes(mode), [appModes]);
  const available = useMemo<AppDisplayMode[]>(
    () => (standalone ? ['fullscreen'] : (['inline', 'fullscreen', 'pip'] as const).filter((m) => allows(m))),
    [standalone, allows],
  );
  const launch = phase.kind === 'open' ? phase.launch : null;
  const hostContext = useMemo(
    () =>
      launch
        ? buildHostContext({
            launch,
            theme,
            mantine,
            displayMode,
            availableDisplayModes: available,
            width: pip ? PIP_SIZE.width : Math.round(width) || 800,
            height,
            shell: appShell(),
            version,
          })
        : null,
    [launch, theme, mantine, displayMode, available, pip, width, height, version, appShell],
  );

  // Downloads read linked resources from the app's own server; a request waiting for the person is declined when
  // the app goes away (closed, reloaded, handed over).
  const readOwn = useMemo(() => (launch ? (uri: string) => readResource(launch.launchId, uri) : null), [launch, readResource]);
  const downloads = useAppDownloads(readOwn);
  const declineDownload = useRef(downloads.decline);
  declineDownload.current = downloads.decline;
  useEffect(() => () => declineDownload.current(), [launch]);
  const onCreateMessage = useCallback(
    (params: Record<string, unknown>) => {
      if (!launch || viewGone.current) return Promise.reject(new Error('The app is closing; the request was not passed on'));
      return createMessage(launch.launchId, params);
    },
    [launch, createMessage],
  );

  // Escape leaves full screen.
  useEffect(() => {
    if (!fullscreen) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setFullscreen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [fullscreen]);

  // The core's URL policy judges the link first (the same check that guards opening it); then the person is asked.
  const onOpenLink = useCallback(
    async (url: string): Promise<boolean> => {
      if (!launch || viewGone.current) return false;
      if (linkBusy.current) throw new Error(LINK_WAITING);
      linkBusy.current = true;
      let gone = false;
      declineLink.current = () => (gone = true);
      try {
        const check = await checkLink(launch.launchId, url).catch((err: unknown): AppLinkCheck => ({
          ok: false,
          reason: err instanceof AppError ? err.message : 'The link could not be checked',
        }));
        if (gone) return false;
        const open = await new Promise<boolean>((resolve) => {
          const answer = (yes: boolean): void => {
            declineLink.current = () => undefined;
            setLink(null);
            resolve(yes);
          };
          declineLink.current = () => answer(false);
          setLink({ url, check, answer });
        });
        if (!open || !check.ok) return false;
        return await openLink(launch.launchId, check.url).then(
          () => true,
          () => false,
        );
      } finally {
        linkBusy.current = false;
        declineLink.current = null;
      }
    },
    [launch, openLink, checkLink],
  );

  const closeGracefully = async (): Promise<void> => {
    await frame.current?.teardown();
    if (pip) usePip.getState().closed();
    else setClosed(true);
  };

  // The app asks to be closed (ui/notifications/request-teardown): the host decides. It is honoured through the one
  // wind-down path (ui/resource-teardown, then the frame goes), except while the person is answering the app's own
  // link request: closing then would pull the question away from under them.
  const onRequestTeardown = (log: MessageLog): void => {
    if (linkBusy.current) {
      log.refused('The app asked to close while its link waits for your answer: it stays open');
      return;
    }
    void closeGracefully();
  };

  // Into the dock: the running app is handed over, and this view shows where it went.
  const enterPip = (): void => {
    if (!launch || phase.kind !== 'open') return;
    handOverApp(launch.launchId);
    setFullscreen(false);
    usePip.getState().enter({ callId, launch, log: phase.log, startedAt: phase.startedAt, returnTo: route });
  };
  // Back inline, to the view it came from; wound down if that view does not take it back.
  const returnInline = (): void => {
    const app = usePip.getState().pip;
    if (!app) return;
    handOverApp(app.launch.launchId);
    usePip.getState().leave();
    navigate(app.returnTo);
    setTimeout(() => {
      if (usePip.getState().returning?.launch.launchId !== app.launch.launchId) return;
      usePip.getState().adopted(app.callId);
      releaseApp(app.launch.launchId);
    }, RETURN_WAIT_MS);
  };

  if (elsewhere) {
    return (
      <Group gap="xs" className="sb-app-closed" data-testid="app-in-pip">
        <Text size="sm" className="sb-dim">
          This app is shown picture-in-picture.
        </Text>
        <Button size="xs" leftSection={<IconPictureInPictureOff size={14} aria-hidden />} onClick={returnInline}>
          Return it here
        </Button>
      </Group>
    );
  }
  if (closed) {
    return (
      <Group gap="xs" className="sb-app-closed">
        <Text size="sm" className="sb-dim">
          The app was closed.
        </Text>
        <Button size="xs" onClick={() => ((moved.current = null), setClosed(false), setAttempt((a) => a + 1))}>
          Show the app again
        </Button>
      </Group>
    );
  }
  if (phase.kind === 'failed') {
    return (
      <Alert color="red" title={phase.title} role="alert" data-testid="app-error">
        {phase.message}
      </Alert>
    );
  }
  if (phase.kind === 'opening' || !launch || !hostContext) {
    return (
      <Group gap="xs" aria-busy="true" data-testid="app-loading">
        <Loader size="xs" aria-hidden />
        <Text size="sm">Loading the app…</Text>
      </Group>
    );
  }

  const { log, startedAt } = phase;
  const title = escapeUnsafe(launch.toolInfo.title ?? launch.toolInfo.name);
  return (
    <Paper
      withBorder={launch.prefersBorder !== false || standalone}
      radius={standalone ? 0 : 'md'}
      className="sb-app"
      data-fullscreen={fullscreen || undefined}
      data-pip={pip || undefined}
      data-standalone={standalone || undefined}
      data-launch-id={launch.launchId}
      role="region"
      aria-label={pip ? `Picture-in-picture app: ${title}` : `App: ${title}`}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs" px="sm" className="sb-app-bar" h={BAR_HEIGHT}>
        <Group gap="xs" wrap="nowrap" miw={0}>
          <IconAppWindow size={18} aria-hidden />
          <Text fw={600} size="sm" truncate="end" title={`${title} (${launch.serverName} · ${launch.resourceUri})`}>
            {title}
          </Text>
          {!pip && (
            // Gives way long before the title does (the title was cut to a few letters beside a long address).
            <Text size="xs" className="sb-dim sb-app-origin" truncate="end" visibleFrom="sm" style={{ flexShrink: 100 }}>
              {launch.serverName} · {launch.resourceUri}
            </Text>
          )}
          {running === 'starting' && <Loader size={12} aria-label="Starting" />}
          {running === 'running' && (
            <Text size="xs" fw={600} className="sb-ok" data-testid="app-status">
              running
            </Text>
          )}
        </Group>
        {pip ? (
          <Group gap={2} wrap="nowrap">
            <Tooltip label="Return the app to where it was">
              <ActionIcon aria-label="Return inline" onClick={returnInline}>
                <IconPictureInPictureOff size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Close the app">
              <ActionIcon aria-label="Close the app" onClick={() => void closeGracefully()}>
                <IconX size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
        ) : (
          <Group gap={2} wrap="nowrap">
            <Tooltip label={inspector ? 'Hide the inspector' : 'Inspector: every message with the app'}>
              <ActionIcon
                aria-label="Inspector"
                aria-pressed={inspector}
                onClick={() => setInspector((v) => !v)}
                variant={inspector ? 'light' : 'subtle'}
              >
                <IconBug size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Reload the app">
              <ActionIcon aria-label="Reload the app" onClick={() => ((moved.current = null), setAttempt((a) => a + 1))}>
                <IconRefresh size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
            {!standalone && allows('pip') && (
              <Tooltip label="Picture in picture: keep the app on screen in other views">
                <ActionIcon aria-label="Picture in picture" onClick={enterPip}>
                  <IconPictureInPicture size={18} aria-hidden />
                </ActionIcon>
              </Tooltip>
            )}
            {!standalone && (allows('fullscreen') || fullscreen) && (
              <Tooltip label={fullscreen ? 'Leave full screen (Esc)' : 'Full screen'}>
                <ActionIcon aria-label={fullscreen ? 'Leave full screen' : 'Full screen'} onClick={() => setFullscreen((v) => !v)}>
                  {fullscreen ? <IconArrowsMinimize size={18} aria-hidden /> : <IconArrowsMaximize size={18} aria-hidden />}
                </ActionIcon>
              </Tooltip>
            )}
            {!standalone && (
              <Tooltip label="Open in its own window">
                <ActionIcon aria-label="Open in its own window" onClick={() => void openWindow(callId)}>
                  <IconExternalLink size={18} aria-hidden />
                </ActionIcon>
              </Tooltip>
            )}
            {!standalone && (
              <Button size="compact-xs" variant="subtle" onClick={() => void closeGracefully()}>
                Close
              </Button>
            )}
          </Group>
        )}
      </Group>
      <AppPermissionPrompt launch={launch} onReload={() => setAttempt((a) => a + 1)} />
      {failure && (
        <Alert color="red" title="The app failed to load" role="alert" data-testid="app-error" m="sm">
          {failure}
        </Alert>
      )}
      <div className="sb-app-body" ref={body}>
        <div className="sb-app-main">
          <AppFrame
            ref={frame}
            launch={launch}
            log={log}
            hostContext={hostContext}
            height={height}
            onInitialized={(ms) => {
              setInitMs(ms);
              setRunning('running');
            }}
            onFailed={(message) => {
              setRunning('failed');
              setFailure(message);
            }}
            onAppEvent={(e) => setEvents((all) => [...all.slice(-199), e])}
            onOpenLink={onOpenLink}
            onDownloadFile={downloads.onDownloadFile}
            onCreateMessage={onCreateMessage}
            onDisplayMode={(mode) => {
              // Answered with the mode actually set: an unknown or undeclared mode leaves the current one.
              if (standalone) return 'fullscreen';
              if (pip) {
                if (mode === 'inline' && allows('inline')) {
                  returnInline();
                  return 'inline';
                }
                return 'pip';
              }
              if (mode === 'pip' && allows('pip')) {
                enterPip();
                return 'pip';
              }
              const next = mode === 'fullscreen' && allows('fullscreen') ? true : mode === 'inline' ? false : fullscreen;
              setFullscreen(next);
              return next ? 'fullscreen' : 'inline';
            }}
            onAppModes={setAppModes}
            onRequestTeardown={() => onRequestTeardown(phase.log)}
            onAttached={() => (framed.current = launch.launchId)}
            onEnded={() => void closeApp(launch.launchId)}
          />
        </div>
        {!pip && <AppSidePanel events={events} />}
      </div>
      {inspector && <AppInspector log={log} launch={launch} startedAt={startedAt} initMs={initMs} />}
      <LinkConsentDialog link={link} appName={title} onAnswer={(open) => link?.answer(open)} />
      <DownloadConsentDialog
        files={downloads.asking}
        appName={title}
        serverName={launch.serverName}
        saveDialog={appShell() === 'electron'}
        onAnswer={downloads.answer}
      />
    </Paper>
  );
}
