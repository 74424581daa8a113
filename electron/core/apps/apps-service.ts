// MCP Apps on the core side: opening an app for a finished call (its checked ui:// resource, policy and grants), the
// requests the app makes through its frame (tools/call routed like a person's call and recorded "from app",
// resources/read within the read budget, links through the safe opener), and the per-server grants.
import type { Client, Tool } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/config.js';
import type { AppGrants, AppLaunch, AppLinkCheck, AppSamplingResult, AppToolResult, ServerApps } from '../../../shared/domains/apps.js';
import type { SamplingBroker } from '../sampling/sampling-broker.js';
import type { ToolSummary } from '../../../shared/domains/catalog.js';
import type { CallOutcome, HistoryEntry } from '../../../shared/domains/calls.js';
import { AppError } from '../../../shared/errors.js';
import type { ToolRoute } from '../catalog/catalog-port.js';
import type { CallService } from '../calls/call-service.js';
import { assertOpenableUrl, type UrlOpener } from '../elicitation/url-opener.js';
import type { EventBus } from '../event-bus.js';
import { checkCallArguments } from '../ingress/arguments.js';
import type { ReportProblem } from '../problems.js';
import { isObject } from '../json.js';
import { requestError } from '../resources/request-error.js';
import { base64Bytes } from '../resources/image-check.js';
import { sanitizeText, truncate } from '../text.js';
import { checkExternalUrl } from '../url-policy.js';
import { appDataProblem, appErrorResult, depthWithin, APP_DATA_DEPTH } from './app-data.js';
import { serverReach } from '../net/server-location.js';
import { buildCspPolicy, restrictCsp } from './csp.js';
import { GrantsStore } from './grants-store.js';
import { Launches, type Launch } from './launches.js';
import type { SandboxPageInput } from './sandbox-page.js';
import { toolResourceUri, toolVisibility } from './tool-ui.js';
import { UiCache } from './ui-cache.js';
import { readUiResource, type UiResource } from './ui-resource.js';
import { formatSize } from '../../../shared/format-size.js';

/** The catalog operations apps use. */
export interface AppsCatalog {
  /** Every published tool of a server (catalog and app-only table). */
  serverTools(serverId: string): { route: ToolRoute; summary: ToolSummary; fingerprint: string }[];
  /** Resolves an app's tools/call by original name on its own server. */
  appRoute(serverId: string, originalName: string, signal?: AbortSignal): Promise<ToolRoute>;
}

/** Where the shell serves the sandbox proxy page. */
export interface SandboxLocation {
  /** The proxy page URL of a launch (a distinct origin from the renderer). */
  pageUrl(launchId: string): string;
  /** The warm-up page, loaded ahead of an app so the sandbox's browser processes are already running. */
  warmUrl: string;
  /** Loopback ports the shell listens on (headless: the bridge and the sandbox); an app may never reach them. */
  reservedPorts?: () => number[];
}

/** What the apps service needs from the host. */
export interface AppsServiceDeps {
  events: Pick<EventBus, 'emit'>;
  config(serverId: string): ServerConfig;
  client(serverId: string): Promise<Client>;
  catalog(): AppsCatalog | undefined;
  calls: Pick<CallService, 'callRoute' | 'result' | 'history'>;
  opener(): UrlOpener;
  /** Folder for the grants file; undefined keeps grants in memory. */
  dataDir?: string;
  /** Where the grants file's problems go (a corrupt file moved aside, a failed write). */
  report?: ReportProblem;
  /** Ids of every server (to find a tool by local name). */
  serverIds?: () => string[];
  /** Loopback ports the core listens on (the gateway); an app may never reach them. */
  reservedPorts?: () => number[];
  /** The answer-by-hand sampling queue (a server's requests go there too); absent: apps may not sample. */
  sampling?: Pick<SamplingBroker, 'request' | 'cancelLaunch'>;
}

/** The apps feature of one host. */
export class AppsService {
  readonly #deps: AppsServiceDeps;
  readonly #sandboxWatchers = new Set<(launchId: string, input: SandboxPageInput | undefined) => void>();
  readonly #launches = new Launches((id, launch) => {
    if (!launch) this.#deps.sampling?.cancelLaunch(id, 'The app was closed');
    const input = launch ? sandboxInputOf(launch) : undefined;
    for (const watch of this.#sandboxWatchers) watch(id, input);
  });
  readonly #cache = new UiCache();
  readonly grants: GrantsStore;
  #sandbox: SandboxLocation | undefined;
  #windowOpener: ((callId: string) => Promise<void>) | undefined;

  constructor(deps: AppsServiceDeps) {
    this.#deps = deps;
    this.grants = new GrantsStore(deps.dataDir, deps.report);
  }

  /** The shell says where it serves the sandbox page (headless: a second loopback port; Electron: its own scheme). */
  setSandbox(location: SandboxLocation): void {
    this.#sandbox = location;
  }

  /** The sandbox's warm-up page, or null when this shell serves no sandbox. */
  warmUrl(): string | null {
    return this.#sandbox?.warmUrl ?? null;
  }

  /** The shell can open a call's app in a window of its own (Electron). */
  setWindowOpener(open: ((callId: string) => Promise<void>) | undefined): void {
    this.#windowOpener = open;
  }

  /** The policy of an open launch, for the sandbox page; undefined when it is not open. */
  sandboxInput(launchId: string): SandboxPageInput | undefined {
    const l = this.#launches.find(launchId);
    return l ? sandboxInputOf(l) : undefined;
  }

  /** Hears each launch's sandbox policy as it opens (and `undefined` as it ends): a shell in another process keeps a
   * copy, because the browser asks it for the policy synchronously. Returns the function that stops listening. */
  watchSandboxInputs(watch: (launchId: string, input: SandboxPageInput | undefined) => void): () => void {
    this.#sandboxWatchers.add(watch);
    return () => this.#sandboxWatchers.delete(watch);
  }

  /** apps.open: reads and checks the app of a finished call's tool and opens a launch for it. */
  async open(callId: string): Promise<AppLaunch> {
    const sandbox = this.#sandbox;
    if (!sandbox) throw new AppError('invalid_request', 'This shell does not serve the app sandbox, so apps cannot be shown');
    const entry = this.#deps.calls.history.get(callId);
    if (!entry) throw new AppError('not_found', `No call ${callId} in the history`);
    const route = this.#route(entry);
    const resourceUri = toolResourceUri(route.tool);
    if (resourceUri === undefined) throw new AppError('app_invalid', `${route.localName} has no app`, { serverId: entry.serverId });
    const config = this.#deps.config(entry.serverId);
    const ui = await this.#uiResource(entry.serverId, resourceUri);
    const grants = this.grants.get(entry.serverId);
    const granted = ui.requested.filter((p) => grants.permissions.includes(p));
    const { csp, refused: cspRefused } = restrictCsp(
      { csp: ui.csp, refused: ui.cspRefused },
      { server: serverReach(config.transport), reservedPorts: this.#reservedPorts() },
    );
    const cspPolicy = buildCspPolicy(csp);
    const sampling = grants.sampling === true && this.#deps.sampling !== undefined;
    const launch = this.#launches.add({
      sampling,
      serverId: entry.serverId,
      tool: route.localName,
      callId,
      cspPolicy,
      permissions: granted,
      popups: grants.popups,
      html: ui.html,
    });
    return {
      launchId: launch.launchId,
      serverId: entry.serverId,
      serverName: sanitizeText(config.name),
      tool: route.localName,
      toolInfo: toolInfo(route.tool),
      resourceUri,
      htmlBytes: ui.bytes,
      htmlSha256: ui.sha256,
      csp,
      cspRefused,
      cspPolicy,
      permissions: { requested: ui.requested, granted },
      popups: grants.popups,
      sampling,
      ...(ui.domain !== undefined ? { domain: { requested: ui.domain, note: DOMAIN_NOTE } } : {}),
      ...(ui.prefersBorder !== undefined ? { prefersBorder: ui.prefersBorder } : {}),
      sandboxUrl: sandbox.pageUrl(launch.launchId),
      call: this.#callView(entry, config),
    };
  }

  /** apps.prefetch: reads and checks a tool's app ahead of its result (while the call runs), for a quick open. */
  async prefetch(localName: string): Promise<void> {
    const route = this.#anyRoute(localName);
    const uri = route ? toolResourceUri(route.tool) : undefined;
    if (!route || uri === undefined) return;
    await this.#uiResource(route.serverId, uri).catch(() => undefined);
  }

  /** The session of a server changed (connect, close, list changes) or one resource was updated: re-read its apps. */
  invalidate(serverId: string, uri?: string): void {
    this.#cache.forget(serverId, uri);
  }

  /** apps.close: the frame was torn down. */
  close(launchId: string): void {
    this.#launches.close(launchId);
  }

  /** apps.callTool: the app's tools/call, on its own server only, routed and recorded like a person's call. */
  async callTool(launchId: string, name: string, args: Record<string, unknown>): Promise<AppToolResult> {
    const launch = this.#launches.get(launchId);
    // Bounded where they enter, before the budget, the route or the history sees them.
    checkCallArguments(args, 'The app', { serverId: launch.serverId });
    const catalog = this.#catalog();
    // Counted from the moment it is asked, whatever becomes of it: refused names spend the budget too.
    const outcome: CallOutcome = await launch.calls.run(launch.serverId, async () =>
      this.#deps.calls.callRoute(await catalog.appRoute(launch.serverId, name), args, {
        origin: { kind: 'app', serverId: launch.serverId, tool: launch.tool },
      }),
    );
    const config = this.#deps.config(launch.serverId);
    let result: Record<string, unknown>;
    try {
      const raw = this.#deps.calls.result(outcome.callId).result;
      const problem = isObject(raw)
        ? appDataProblem(raw, outcome.resultBytes ?? 0, config.limits.messageBytes)
        : 'The result is not an object';
      result = problem === undefined && isObject(raw) ? raw : appErrorResult(problem ?? 'The result could not be passed on');
    } catch {
      result = appErrorResult(outcome.error?.message ?? 'The result is no longer kept');
    }
    return { callId: outcome.callId, result };
  }

  /** apps.readResource: the app's resources/read on its own server, within `limits.resourceBytes`. */
  async readResource(launchId: string, uri: string): Promise<{ contents: Record<string, unknown>[] }> {
    const launch = this.#launches.get(launchId);
    const config = this.#deps.config(launch.serverId);
    if (!config.resources && !uri.startsWith('ui://')) {
      throw new AppError('invalid_request', `Resources are turned off for ${config.name}`, { serverId: config.id });
    }
    const secs = config.timeouts.requestSecs;
    const result: { contents: unknown[] } = await launch.reads.run(launch.serverId, async () => {
      const client = await this.#deps.client(launch.serverId);
      try {
        return await client.readResource({ uri }, { timeout: secs * 1000 });
      } catch (err) {
        throw requestError(err, config.id, 'reading the resource', secs);
      }
    });
    let total = 0;
    for (const c of result.contents) {
      if (!isObject(c)) continue;
      total +=
        typeof c['text'] === 'string' ? Buffer.byteLength(c['text'], 'utf8') : typeof c['blob'] === 'string' ? base64Bytes(c['blob']) : 0;
    }
    const problem = appDataProblem(result, total, config.limits.resourceBytes);
    if (problem !== undefined) {
      throw new AppError(
        'limit_exceeded',
        `${problem} (reading ${truncate(sanitizeText(uri), 200)}, budget ${formatSize(config.limits.resourceBytes)})`,
        {
          serverId: config.id,
        },
      );
    }
    return { contents: result.contents.filter(isObject) };
  }

  /**
   * apps.createMessage: the app's sampling/createMessage, queued for the person as the server's would be (marked as
   * the app's), within the launch's tool-call budget, and only where the person let this server's apps sample.
   */
  async createMessage(launchId: string, params: Record<string, unknown>): Promise<AppSamplingResult> {
    const launch = this.#launches.get(launchId);
    const sampling = this.#deps.sampling;
    const config = this.#deps.config(launch.serverId);
    if (!launch.sampling || !sampling) {
      throw new AppError(
        'sampling_not_enabled',
        `${sanitizeText(config.name)}'s apps may not ask for model replies; allow it on the server's Apps page, then reopen the app`,
        { serverId: launch.serverId },
      );
    }
    const budget = Math.min(APP_SAMPLING_MAX_BYTES, config.limits.messageBytes);
    const bytes = Buffer.byteLength(JSON.stringify(params) ?? '', 'utf8');
    if (bytes > budget || !depthWithin(params, APP_DATA_DEPTH)) {
      throw new AppError(
        'limit_exceeded',
        bytes > budget
          ? `The sampling request is ${formatSize(bytes)}, over the ${formatSize(budget)} an app's request may be`
          : `The sampling request nests deeper than ${APP_DATA_DEPTH} levels`,
        { serverId: launch.serverId },
      );
    }
    return launch.calls.run(launch.serverId, () =>
      sampling.request(launch.serverId, params, undefined, { launchId, tool: launch.tool }).catch((err: unknown) => {
        // The queue's refusals (declined, timed out, withdrawn) reach the app as its request's error, with the reason.
        throw err instanceof AppError
          ? err
          : new AppError('sampling_declined', err instanceof Error ? sanitizeText(err.message) : 'The request was not answered', {
              serverId: launch.serverId,
            });
      }),
    );
  }

  /** apps.checkLink: what the URL policy says of a link the app asks to open, before the person is asked. */
  checkLink(launchId: string, url: string): AppLinkCheck {
    this.#launches.get(launchId); // an ended or unknown launch is refused, as for openLink
    const verdict = checkExternalUrl(url);
    return verdict.ok
      ? { ok: true, url: verdict.url, display: verdict.display, host: verdict.host, warnings: verdict.warnings }
      : { ok: false, reason: verdict.reason };
  }

  /** apps.openLink: a link the person agreed to open, checked and handed to the safe opener. */
  async openLink(launchId: string, url: string): Promise<{ url: string }> {
    const launch = this.#launches.get(launchId);
    assertOpenableUrl(url);
    const normalized = new URL(url).href;
    try {
      await this.#deps.opener().open(normalized);
    } catch (err) {
      throw err instanceof AppError ? err : new AppError('url_refused', 'The link could not be opened', { serverId: launch.serverId });
    }
    return { url: normalized };
  }

  /** apps.openWindow: the call's app in a window of its own, where the shell has windows. */
  async openWindow(callId: string): Promise<void> {
    if (!this.#deps.calls.history.get(callId)) throw new AppError('not_found', `No call ${callId} in the history`);
    if (!this.#windowOpener) throw new AppError('invalid_request', 'This shell opens apps in a browser tab, not a window');
    await this.#windowOpener(callId);
  }

  /** apps.server: a server's apps, app-only tools and grants. */
  server(serverId: string): ServerApps {
    this.#deps.config(serverId);
    const tools = this.#deps.catalog()?.serverTools(serverId) ?? [];
    const apps: ServerApps['apps'] = [];
    const appOnlyTools: ServerApps['appOnlyTools'] = [];
    for (const { route, summary, fingerprint } of tools) {
      const resourceUri = toolResourceUri(route.tool);
      const title = summary.title;
      if (resourceUri !== undefined) {
        apps.push({
          tool: route.localName,
          originalName: summary.originalName,
          ...(title !== undefined ? { title } : {}),
          resourceUri,
          visibility: toolVisibility(route.tool),
        });
      }
      if (route.appOnly) {
        appOnlyTools.push({
          tool: route.localName,
          originalName: summary.originalName,
          ...(title !== undefined ? { title } : {}),
          description: summary.description,
          pin: route.pin,
          fingerprint,
        });
      }
    }
    const byName = (a: { tool: string }, b: { tool: string }): number => (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0);
    return { serverId, apps: apps.sort(byName), appOnlyTools: appOnlyTools.sort(byName), grants: this.grants.get(serverId) };
  }

  /** apps.setGrants: what the person allows this server's apps (takes effect when an app is next opened). */
  setGrants(serverId: string, grants: AppGrants): AppGrants {
    this.#deps.config(serverId);
    const stored = this.grants.set(serverId, grants);
    this.#deps.events.emit('apps.grantsChanged', { serverId, grants: stored });
    return stored;
  }

  /** A server was removed: its launches end and its grants are forgotten. */
  forgetServer(serverId: string): void {
    this.#cache.forget(serverId);
    this.#launches.closeServer(serverId);
    this.grants.forget(serverId);
  }

  /** Writes pending grants. */
  async dispose(): Promise<void> {
    await this.grants.flush();
  }

  /** Open launches (tests). */
  get openLaunches(): number {
    return this.#launches.size;
  }

  /** A launch's record (tests and the shells). */
  launch(launchId: string): Launch | undefined {
    return this.#launches.find(launchId);
  }

  /** An open launch, or `not_found` when it was closed (as every request of an app is answered then). */
  openLaunch(launchId: string): Launch {
    return this.#launches.get(launchId);
  }

  #catalog(): AppsCatalog {
    const catalog = this.#deps.catalog();
    if (!catalog) throw new AppError('not_found', 'The tool catalog is not available yet');
    return catalog;
  }

  #route(entry: HistoryEntry): ToolRoute {
    const found = this.#catalog()
      .serverTools(entry.serverId)
      .find((t) => t.route.localName === entry.tool);
    if (!found) throw new AppError('not_found', `${entry.tool} is no longer offered by its server`, { serverId: entry.serverId });
    return found.route;
  }

  #uiResource(serverId: string, uri: string): Promise<UiResource> {
    return this.#cache.get(serverId, uri, async () => readUiResource(await this.#deps.client(serverId), this.#deps.config(serverId), uri));
  }

  /** A published route by local name on any server (local names do not always carry the server id verbatim). */
  #anyRoute(localName: string): ToolRoute | undefined {
    const catalog = this.#deps.catalog();
    if (!catalog) return undefined;
    for (const id of this.#serverIds()) {
      const found = catalog.serverTools(id).find((t) => t.route.localName === localName);
      if (found) return found.route;
    }
    return undefined;
  }

  #reservedPorts(): number[] {
    return [...(this.#deps.reservedPorts?.() ?? []), ...(this.#sandbox?.reservedPorts?.() ?? [])];
  }

  #serverIds(): string[] {
    return this.#deps.serverIds?.() ?? [];
  }

  #callView(entry: HistoryEntry, config: ServerConfig): AppLaunch['call'] {
    const view: AppLaunch['call'] = { callId: entry.callId, status: entry.status, arguments: entry.arguments };
    if (entry.status === 'cancelled') return { ...view, cancelledReason: entry.error?.message ?? 'The call was cancelled' };
    try {
      const raw = this.#deps.calls.result(entry.callId).result;
      const bytes = Buffer.byteLength(JSON.stringify(raw) ?? '', 'utf8');
      const problem = isObject(raw) ? appDataProblem(raw, bytes, config.limits.messageBytes) : 'The result is not an object';
      return problem === undefined && isObject(raw) ? { ...view, result: raw } : { ...view, resultOmitted: problem ?? 'not an object' };
    } catch (err) {
      return { ...view, resultOmitted: err instanceof AppError ? err.message : 'The result is no longer kept' };
    }
  }
}

/** Largest sampling request an app may send (a conversation a person reads; the server's message budget may be lower). */
export const APP_SAMPLING_MAX_BYTES = 1024 * 1024;

/** Why an app that asks for a dedicated origin (`_meta.ui.domain`) runs on the sandbox origin instead. */
export const DOMAIN_NOTE =
  'Switchboard runs every app on its own sandbox origin, one per launch; an app that depends on a dedicated origin (OAuth callbacks, CORS or key allow-lists) may not work here';

/** The definition given to the app as host context (`toolInfo.tool`). */
function toolInfo(tool: Tool): AppLaunch['toolInfo'] {
  return {
    name: tool.name,
    ...(typeof tool.title === 'string' ? { title: tool.title } : {}),
    ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema as Record<string, unknown>,
  };
}

/** The part of a launch its sandbox page needs (copied: the launch itself stays the core's). */
function sandboxInputOf(l: SandboxPageInput): SandboxPageInput {
  return { cspPolicy: l.cspPolicy, permissions: [...l.permissions], popups: l.popups, html: l.html };
}
