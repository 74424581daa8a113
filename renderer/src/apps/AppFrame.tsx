// One app in its sandbox: an iframe on the sandbox origin (the proxy, which loads the app's document from that origin
// itself), an AppBridge over a logged PostMessageTransport to it, and the bridge's handlers routed to the core through
// the store. Tool input and result go to the app once it is initialized; size changes resize the frame within bounds.
// A frame that closes (its view unmounts, is replaced or the person closes it) asks the app to wind down and stays
// alive, parked out of sight, until the app answers or TEARDOWN_MS pass; only then is its bridge closed. A frame
// handed over (picture-in-picture and back) is parked the same way and adopted, still running, by the frame that
// mounts next for its launch: the app and its bridge carry on, answering to the new frame's props.
import {
  AppBridge,
  buildAllowAttribute,
  type McpUiHostContext,
  type McpUiResourcePermissions,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import type {
  CallToolResult,
  CreateMessageResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ReadResourceResult,
} from '@modelcontextprotocol/client';
import { forwardRef, useEffect, useImperativeHandle, useLayoutEffect, useRef, useState } from 'react';
import { adoptFrame, parkFrame } from './frame-parking';
import type { AppLaunch } from '../../../shared/domains/apps';
import { useStore } from '../store';
import type { AppDisplayMode } from './host-context';
import { LoggedTransport } from './logged-transport';
import type { MessageLog } from './message-log';
import { sandboxSrc } from './sandbox-url';

/** Smallest and largest inline height the app may ask for (pixels). */
export const MIN_APP_HEIGHT = 48;
/** The sandbox must say it is ready within this time. */
const SANDBOX_READY_MS = 15_000;
/** The app must send ui/notifications/initialized within this time. */
const INITIALIZED_MS = 20_000;
/** How long a closing app may take to answer ui/resource-teardown before its frame is removed anyway. */
export const TEARDOWN_MS = 1_000;

/** Something the app said that the view shows (side panel). */
export type AppEvent =
  | { kind: 'message'; at: number; content: unknown[] }
  | { kind: 'context'; at: number; content: unknown[]; structuredContent?: Record<string, unknown> };

/** What the frame reports upwards and asks of its view. */
export interface AppFrameProps {
  launch: AppLaunch;
  log: MessageLog;
  /** The host context now (changes after initialization are sent as host-context-changed). */
  hostContext: McpUiHostContext;
  /** Height: fixed (full screen, own window), or grown to the app's size up to `max`. */
  height: { fixed: number } | { max: number };
  /** The app is up (ms since the frame was created). */
  onInitialized: (ms: number) => void;
  /** The app could not be shown. */
  onFailed: (message: string) => void;
  /** ui/message and ui/update-model-context. */
  onAppEvent: (event: AppEvent) => void;
  /** ui/open-link: resolves true once the person agreed and the link was opened. */
  onOpenLink: (url: string) => Promise<boolean>;
  /** ui/download-file: resolves true once the person agreed and the files were handed to the save; throws a refusal's reason. */
  onDownloadFile: (contents: unknown) => Promise<boolean>;
  /** sampling/createMessage from the app, when its server's apps may sample: the person's reply. */
  onCreateMessage?: (params: Record<string, unknown>) => Promise<CreateMessageResult>;
  /** ui/request-display-mode: returns the mode now in effect. */
  onDisplayMode: (mode: string) => AppDisplayMode;
  /** The app asked to be closed. */
  onRequestTeardown: () => void;
  /** The frame took charge of the launch: from now on it says when the launch may be closed (onEnded). */
  onAttached?: () => void;
  /** The frame is gone and its app has wound down (or TEARDOWN_MS passed): the launch may be closed now. */
  onEnded?: () => void;
  /** The display modes the app declared in ui/initialize (undefined: it declared none). */
  onAppModes?: (modes: string[] | undefined) => void;
}

/** A running app whose frame is being handed to another view: it is parked, not wound down, when its frame unmounts. */
const handingOver = new Set<string>();
/** Running apps by launch, while some frame shows them or they wait to be adopted. */
const live = new Map<string, LiveApp>();

/** What outlives one frame component of a launch: its element, bridge and the props it answers to. */
interface LiveApp {
  frame: HTMLIFrameElement;
  bridge: AppBridge;
  props: { current: AppFrameProps };
  up: boolean;
  end: () => Promise<void>;
  isEnded: () => boolean;
  setReported: { current: (h: number) => void };
  dispose: () => void;
}

/** Marks a launch's app as moving to another view: the frame now showing it parks it instead of winding it down. */
export function handOverApp(launchId: string): void {
  if (live.has(launchId)) handingOver.add(launchId);
}

/** Winds down a handed-over app that no view adopted (its way back had nowhere to go), and closes its launch. */
export function releaseApp(launchId: string): void {
  const app = live.get(launchId);
  if (!app || !handingOver.has(launchId) || app.frame.classList.contains('sb-app-frame')) return;
  handingOver.delete(launchId);
  live.delete(launchId);
  void app.end().then(() => {
    app.dispose();
    app.props.current.onEnded?.();
  });
}

/** What a view can do with its frame. */
export interface AppFrameHandle {
  /** Asks the app to wind down (ui/resource-teardown) once, settling when it answers or TEARDOWN_MS pass. */
  teardown(): Promise<void>;
}

const permissionsObject = (granted: AppLaunch['permissions']['granted']): McpUiResourcePermissions =>
  Object.fromEntries(granted.map((p) => [p, {}])) as McpUiResourcePermissions;

/** The sandboxed app frame. */
export const AppFrame = forwardRef<AppFrameHandle, AppFrameProps>(function AppFrame(props, ref) {
  const { launch, log } = props;
  const slot = useRef<HTMLDivElement>(null);
  const iframe = useRef<HTMLIFrameElement | null>(null);
  const bridgeRef = useRef<AppBridge | null>(null);
  const windDown = useRef<(() => Promise<void>) | null>(null);
  const latest = useRef(props);
  latest.current = props;
  const [reported, setReported] = useState<number | null>(null);
  const callTool = useStore((s) => s.appCallTool);
  const readResource = useStore((s) => s.appReadResource);
  const listResources = useStore((s) => s.appListResources);
  const listTemplates = useStore((s) => s.appListResourceTemplates);

  useImperativeHandle(ref, () => ({ teardown: () => windDown.current?.() ?? Promise.resolve() }));

  // A layout effect: the bridge listens before the browser can deliver anything from the frame just inserted (the
  // proxy says it is ready, and the app may ask to initialize, as soon as they load). The frame is this effect's
  // own element (not React's), so that closing can keep it running after its place on the page is gone.
  useLayoutEffect(() => {
    const host = slot.current;
    if (!host) return;
    let app = live.get(launch.launchId);
    if (app && handingOver.has(launch.launchId)) {
      // Adopted: the running app moves here and answers to this frame's props from now on.
      handingOver.delete(launch.launchId);
      if (!adoptFrame(app.frame, host)) {
        // This engine cannot move a frame without reloading it: the old one winds down and a new one starts.
        const stale = app;
        live.delete(launch.launchId);
        void stale.end().then(() => stale.dispose());
        app = undefined;
      } else {
        app.props = latest;
        latest.current.onAttached?.();
        if (app.up) latest.current.onAppModes?.(app.bridge.getAppCapabilities()?.availableDisplayModes);
      }
    } else app = undefined;
    app ??= startApp(launch, log, host, latest, { callTool, readResource, listResources, listTemplates });
    if (!app) return;
    const running = app;
    running.setReported.current = (h) => setReported(h);
    iframe.current = running.frame;
    bridgeRef.current = running.bridge;
    windDown.current = running.end;
    return () => {
      bridgeRef.current = null;
      windDown.current = null;
      iframe.current = null;
      running.setReported.current = noop;
      if (handingOver.has(launch.launchId) && !running.isEnded() && parkFrame(running.frame)) return;
      handingOver.delete(launch.launchId);
      live.delete(launch.launchId);
      const finish = (): void => {
        running.dispose();
        running.props.current.onEnded?.();
      };
      if (running.isEnded() || !running.up) return finish();
      // Still winding down: the frame keeps running out of sight (its place is about to go) until the app answers.
      parkFrame(running.frame);
      void running.end().then(finish);
    };
    // One bridge and frame per launch; later prop changes are read through `latest`.
  }, [launch, log, callTool, readResource, listResources, listTemplates]);

  // Host context changes after initialization (theme, size, display mode) go to the app as a partial update.
  // An adopted app gets the new frame's context (display mode, size) at once.
  const hostContext = props.hostContext;
  useEffect(() => {
    const app = live.get(launch.launchId);
    if (app?.up && bridgeRef.current === app.bridge) app.bridge.setHostContext(hostContext);
  }, [hostContext, launch.launchId]);

  const h = props.height;
  const height = 'fixed' in h ? h.fixed : Math.min(h.max, Math.max(MIN_APP_HEIGHT, reported ?? 360));
  useLayoutEffect(() => {
    if (iframe.current) iframe.current.style.height = `${height}px`;
  });
  return <div ref={slot} className="sb-app-frame-slot" />;
});

/** What a running app asks of the core, through the store. */
interface AppCalls {
  callTool: (launchId: string, name: string, args: Record<string, unknown>) => Promise<{ result: unknown }>;
  readResource: (launchId: string, uri: string) => Promise<unknown>;
  listResources: (launchId: string, cursor?: string) => Promise<unknown>;
  listTemplates: (launchId: string) => Promise<unknown>;
}

/** Starts a launch's app in a new frame inside `host`: the proxy frame, its bridge and every handler. */
function startApp(
  launch: AppLaunch,
  log: MessageLog,
  host: HTMLElement,
  initialProps: { current: AppFrameProps },
  calls: AppCalls,
): LiveApp | undefined {
  const { callTool, readResource, listResources, listTemplates } = calls;
  const frame = createFrame(launch);
  host.appendChild(frame);
  const target = frame.contentWindow;
  if (!target) {
    frame.remove();
    return undefined;
  }
  const started = performance.now();
  const p = (): AppFrameProps => app.props.current;
  const bridge = new AppBridge(
    null,
    { name: 'Switchboard', version: String(initialProps.current.hostContext['userAgent'] ?? 'Switchboard').replace(/^Switchboard\//, '') },
    {
      openLinks: {},
      downloadFile: {},
      serverTools: {},
      serverResources: {},
      logging: {},
      message: { text: {}, image: {}, resource: {}, resourceLink: {} },
      updateModelContext: { text: {}, image: {}, resource: {}, resourceLink: {}, structuredContent: {} },
      sandbox: { permissions: permissionsObject(launch.permissions.granted), csp: launch.csp },
      // Offered only where the person let this server's apps ask for a model reply (answered by hand).
      ...(launch.sampling ? { sampling: {} } : {}),
    },
    { hostContext: initialProps.current.hostContext },
  );
  // The one way an app is wound down (Close, the app's own request, unmount): ui/resource-teardown at most once,
  // settled by the app's answer, an error or TEARDOWN_MS. An app that never started has nothing to wind down.
  let ending: Promise<void> | undefined;
  let ended = false;
  const end = (): Promise<void> =>
    (ending ??= (app.up ? bridge.teardownResource({}, { timeout: TEARDOWN_MS }).then(noop, noop) : Promise.resolve()).then(() => {
      ended = true;
    }));
  const app: LiveApp = {
    frame,
    bridge,
    props: initialProps,
    up: false,
    end,
    isEnded: () => ended,
    setReported: { current: noop },
    dispose: noop,
  };
  live.set(launch.launchId, app);
  p().onAttached?.();

  bridge.oncalltool = async (params) => (await callTool(launch.launchId, params.name, params.arguments ?? {})).result as CallToolResult;
  bridge.onreadresource = async (params) => (await readResource(launch.launchId, params.uri)) as ReadResourceResult;
  // serverResources is advertised: listings go to the launch's own server, bounded by the core.
  bridge.onlistresources = async (params) => (await listResources(launch.launchId, params?.cursor)) as ListResourcesResult;
  bridge.onlistresourcetemplates = async () => (await listTemplates(launch.launchId)) as ListResourceTemplatesResult;
  // Declined or refused links are a JSON-RPC error, as the extension's specification describes.
  bridge.onopenlink = async ({ url }) => {
    // Nobody is there to ask once the app is winding down out of sight.
    if (ending !== undefined) throw new Error('The app is closing; the link was not opened');
    if (!(await p().onOpenLink(url))) throw new Error('Link opening denied by the user');
    return {};
  };
  bridge.ondownloadfile = async ({ contents }) => {
    if (ending !== undefined) throw new Error('The app is closing; nothing was saved');
    return (await p().onDownloadFile(contents)) ? {} : { isError: true };
  };
  if (launch.sampling) {
    bridge.oncreatesamplingmessage = async (params) => {
      if (ending !== undefined) throw new Error('The app is closing; the request was not passed on');
      const ask = p().onCreateMessage;
      if (!ask) throw new Error('This view cannot answer sampling requests');
      return ask(params as unknown as Record<string, unknown>);
    };
  }
  bridge.onmessage = async ({ content }) => {
    p().onAppEvent({ kind: 'message', at: Date.now(), content });
    return {};
  };
  bridge.onupdatemodelcontext = async ({ content, structuredContent }) => {
    p().onAppEvent({ kind: 'context', at: Date.now(), content: content ?? [], ...(structuredContent ? { structuredContent } : {}) });
    return {};
  };
  bridge.onrequestdisplaymode = async ({ mode }) => ({ mode: p().onDisplayMode(mode) });
  bridge.addEventListener('requestteardown', () => {
    if (ending === undefined) p().onRequestTeardown();
  });
  bridge.addEventListener('sizechange', ({ height }) => {
    if (typeof height === 'number' && Number.isFinite(height)) app.setReported.current(Math.ceil(height));
  });

  const sandboxTimer = setTimeout(() => p().onFailed('The app sandbox did not load.'), SANDBOX_READY_MS);
  const initTimer = setTimeout(
    () => p().onFailed(`The app did not start: no ui/notifications/initialized within ${INITIALIZED_MS / 1000} s.`),
    INITIALIZED_MS,
  );
  bridge.addEventListener('sandboxready', () => clearTimeout(sandboxTimer));
  bridge.addEventListener('initialized', () => {
    if (app.up) return;
    app.up = true;
    clearTimeout(initTimer);
    p().onInitialized(Math.round(performance.now() - started));
    p().onAppModes?.(bridge.getAppCapabilities()?.availableDisplayModes);
    const call = launch.call;
    void bridge.sendToolInput({ arguments: call.arguments });
    if (call.cancelledReason !== undefined) void bridge.sendToolCancelled({ reason: call.cancelledReason });
    else if (call.result) void bridge.sendToolResult(call.result as CallToolResult);
  });

  // Messages that come from inside this app but not through its proxy (the app posting to the renderer directly,
  // e.g. with a forged method) are refused by the transport's source check; the Inspector shows them.
  const watchForged = (event: MessageEvent): void => {
    if (event.source === null || event.source === target) return;
    if (isInside(target, event.source)) log.refused('A message sent around the sandbox proxy was not accepted', event.data);
  };
  window.addEventListener('message', watchForged);

  const transport = new LoggedTransport(target, log);
  bridge
    .connect(transport)
    .catch((err: unknown) => p().onFailed(`The app bridge could not start: ${err instanceof Error ? err.message : 'unknown error'}`));

  app.dispose = () => {
    clearTimeout(sandboxTimer);
    clearTimeout(initTimer);
    window.removeEventListener('message', watchForged);
    void bridge.close().catch(noop);
    frame.remove();
  };
  return app;
}

const noop = (): void => undefined;

/** The frame element of a launch: the proxy on the sandbox origin, with the flags and delegations it is allowed. */
function createFrame(launch: AppLaunch): HTMLIFrameElement {
  const frame = document.createElement('iframe');
  frame.className = 'sb-app-frame';
  frame.title = `App: ${launch.toolInfo.title ?? launch.toolInfo.name}`;
  // The proxy runs on its own origin (allow-same-origin keeps that origin, not ours); the app inside it gets
  // an opaque origin (allow-scripts allow-forms only). Never top navigation, never modals.
  frame.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms' + (launch.popups ? ' allow-popups' : ''));
  const allow = buildAllowAttribute(permissionsObject(launch.permissions.granted));
  if (allow) frame.setAttribute('allow', allow);
  frame.referrerPolicy = 'no-referrer';
  frame.dataset['launch'] = launch.launchId;
  frame.src = sandboxSrc(launch.sandboxUrl, window.location);
  return frame;
}

/** True when `source` is a frame nested (at any depth) inside `root`; cross-origin frames allow walking `frames`. */
function isInside(root: Window, source: MessageEventSource): boolean {
  const stack: Window[] = [root];
  for (let guard = 0; stack.length > 0 && guard < 256; guard++) {
    const w = stack.pop()!;
    let n = 0;
    try {
      n = w.frames.length;
    } catch {
      continue;
    }
    for (let i = 0; i < n; i++) {
      const child = w.frames[i];
      if (!child) continue;
      if (child === source) return true;
      stack.push(child);
    }
  }
  return false;
}
