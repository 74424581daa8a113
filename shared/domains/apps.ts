// Contract types for MCP Apps (extension io.modelcontextprotocol/ui): a tool's `ui://` resource rendered in a sandbox,
// the calls its app makes, and the browser permissions a person grants per server.
import { z } from 'zod';
import type { CallStatus } from './calls.js';
import type { PinState } from './catalog.js';
import type { ResourceItem, ResourceTemplateItem } from './resources.js';

/** Who may use a tool under MCP Apps visibility: the model, the server's own app, or both (the default). */
export type AppVisibility = 'model' | 'app';

/** A tool's MCP Apps metadata as the catalog records it. */
export interface ToolUi {
  /** The `ui://` resource that renders the tool's results, when the tool has an app. */
  resourceUri?: string;
  /** Who may use the tool (`['model', 'app']` when the server did not say). */
  visibility: AppVisibility[];
}

/** A browser capability an app may request in `_meta.ui.permissions`. */
export type AppPermission = 'camera' | 'microphone' | 'geolocation' | 'clipboardWrite';

/** What a person allowed the apps of one server (stored per server; everything is denied until granted). */
export interface AppGrants {
  /** Browser capabilities granted. */
  permissions: AppPermission[];
  /** The app may open pop-up windows. */
  popups: boolean;
  /** The app may ask for a model reply (sampling/createMessage), answered by hand like a server's; absent means no. */
  sampling?: boolean;
}

/** The origins an app may reach, built from `_meta.ui.csp` after every entry was checked. */
export interface AppCsp {
  /** fetch/XHR/WebSocket targets (`connect-src`). */
  connectDomains: string[];
  /** Scripts, styles, images, fonts and media (`script-src`, `style-src`, `img-src`, `font-src`, `media-src`). */
  resourceDomains: string[];
  /** Nested frames (`frame-src`). */
  frameDomains: string[];
  /** Document base URIs (`base-uri`). */
  baseUriDomains: string[];
}

/** One `_meta.ui.csp` entry that was refused, and why. */
export interface AppCspRefusal {
  /** The list it came from. */
  list: keyof AppCsp;
  /** The value as given (sanitized, shortened). */
  value: string;
  /** Why it was refused. */
  reason: string;
}

/** The call whose result the app shows. */
export interface AppCallView {
  /** The call id. */
  callId: string;
  /** How the call ended. */
  status: CallStatus;
  /** The arguments it was called with (sent to the app as `ui/notifications/tool-input`). */
  arguments: Record<string, unknown>;
  /** The tool's result as the server sent it (sent as `ui/notifications/tool-result`), when it is kept and fits. */
  result?: Record<string, unknown>;
  /** Why the result is not given (no longer kept, over the budget). */
  resultOmitted?: string;
  /** Why the call was cancelled (sent as `ui/notifications/tool-cancelled`). */
  cancelledReason?: string;
}

/** Everything the renderer needs to show one app: checked HTML, its policy, grants and the call it belongs to. */
export interface AppLaunch {
  /** Id of this launch; the app's requests name it, the sandbox URL carries it. */
  launchId: string;
  /** Server that serves the app. */
  serverId: string;
  /** Server display name (sanitized). */
  serverName: string;
  /** Local name of the tool whose result the app shows. */
  tool: string;
  /** The tool definition for the app's host context (original name, title, description, input schema). */
  toolInfo: { name: string; title?: string; description?: string; inputSchema: Record<string, unknown> };
  /** The `ui://` resource. */
  resourceUri: string;
  /** Size of the HTML in bytes. */
  htmlBytes: number;
  /** SHA-256 of the HTML (hex), so an author can tell versions apart. */
  htmlSha256: string;
  /** The origins the app may reach. */
  csp: AppCsp;
  /** `_meta.ui.csp` entries that were refused. */
  cspRefused: AppCspRefusal[];
  /** The exact Content-Security-Policy the sandbox enforces. */
  cspPolicy: string;
  /** Browser capabilities requested by the app and those the person granted this server. */
  permissions: { requested: AppPermission[]; granted: AppPermission[] };
  /** The person allowed this server's apps to open pop-ups. */
  popups: boolean;
  /** The person let this server's apps ask for model replies (offered as `hostCapabilities.sampling`). */
  sampling: boolean;
  /** The dedicated origin the app asked for (`_meta.ui.domain`, sanitized) and why it runs on the sandbox origin instead. */
  domain?: { requested: string; note: string };
  /** The app asked for a visible border (`_meta.ui.prefersBorder`). */
  prefersBorder?: boolean;
  /** The sandbox proxy page for this launch (a distinct origin from the renderer). */
  sandboxUrl: string;
  /** The call the app belongs to. */
  call: AppCallView;
}

/** What a tools/call from an app returned: the server's result as sent, or a tool error. */
export interface AppToolResult {
  /** Id of the recorded call (history marks it "from app"). */
  callId: string;
  /** The CallToolResult for the app. */
  result: Record<string, unknown>;
}

/** The reply an app's sampling request gets: the person's text as the model's message. */
export interface AppSamplingResult {
  [key: string]: unknown;
  /** Always the assistant. */
  role: 'assistant';
  /** The reply. */
  content: { type: 'text'; text: string };
  /** The model name reported. */
  model: string;
  /** Why the reply ended. */
  stopReason: string;
}

/** A server's apps as its page shows them. */
export interface ServerApps {
  /** Server id. */
  serverId: string;
  /** Tools with an app (`_meta.ui.resourceUri`). */
  apps: { tool: string; originalName: string; title?: string; resourceUri: string; visibility: AppVisibility[] }[];
  /** Tools only the server's app may call (kept out of the model-facing catalog). */
  appOnlyTools: { tool: string; originalName: string; title?: string; description: string; pin: PinState; fingerprint: string }[];
  /** What the person allowed this server's apps. */
  grants: AppGrants;
}

/** The URL policy's verdict on an app's link: the address as it would be opened and shown, with warnings, or why it is refused. */
export type AppLinkCheck = { ok: true; url: string; display: string; host: string; warnings: string[] } | { ok: false; reason: string };

/** A resource template as an app receives it (`resources/templates/list`): the protocol's fields, sanitized. */
export type AppResourceTemplate = Omit<ResourceTemplateItem, 'variables'>;

/** Contract methods of the apps domain: name → (argument object) → result. */
export interface AppsInvokeMap {
  /** Reads and checks the app of a finished call's tool and opens a launch for it. */
  'apps.open': (args: { callId: string }) => Promise<AppLaunch>;
  /** Reads and checks a tool's app while a call of it runs, so the app opens quickly after the result (nothing is returned). */
  'apps.prefetch': (args: { tool: string }) => Promise<void>;
  /** Ends a launch (its frame was torn down); later requests naming it are refused. */
  'apps.close': (args: { launchId: string }) => Promise<void>;
  /** A `tools/call` from an app: routed like a person's call (catalog or app-only table, pins, concurrency) and recorded as "from app". */
  'apps.callTool': (args: { launchId: string; name: string; arguments?: Record<string, unknown> }) => Promise<AppToolResult>;
  /** A `resources/read` from an app, through the session and within the server's read budget. */
  'apps.readResource': (args: { launchId: string; uri: string }) => Promise<{ contents: Record<string, unknown>[] }>;
  /** A `resources/list` from an app: one page of its own server's resources, bounded like `resources.list`. */
  'apps.listResources': (args: { launchId: string; cursor?: string }) => Promise<{ resources: ResourceItem[]; nextCursor?: string }>;
  /** A `resources/templates/list` from an app: its own server's resource templates, bounded like `resources.templates`. */
  'apps.listResourceTemplates': (args: { launchId: string }) => Promise<{ resourceTemplates: AppResourceTemplate[] }>;
  /** The URL policy's verdict on a link an app asks to open, for the consent dialog (nothing is opened). */
  'apps.checkLink': (args: { launchId: string; url: string }) => Promise<AppLinkCheck>;
  /** A `ui/open-link` the person consented to: checked and opened through the safe opener. */
  'apps.openLink': (args: { launchId: string; url: string }) => Promise<{ url: string }>;
  /** A `sampling/createMessage` from an app, when its server's apps may sample: queued for the person like a server's, within the launch's budget. */
  'apps.createMessage': (args: { launchId: string; params: Record<string, unknown> }) => Promise<AppSamplingResult>;
  /** Opens the launch's call in a window of its own (Electron; headless opens a browser tab itself). */
  'apps.openWindow': (args: { callId: string }) => Promise<void>;
  /** A server's apps, app-only tools and grants. */
  'apps.server': (args: { serverId: string }) => Promise<ServerApps>;
  /** Sets what the person allows a server's apps; returns the stored grants. */
  'apps.setGrants': (args: { serverId: string; grants: AppGrants }) => Promise<AppGrants>;
}

/** Events the core pushes for the apps domain: name → payload. */
export interface AppsEventMap {
  /** What a person allows a server's apps changed. */
  'apps.grantsChanged': { serverId: string; grants: AppGrants };
}

// Argument validators, one per method above: run before any handler, their shapes checked against the method
// types in contract-schemas.ts.
const id = z.string().min(1).max(200);
const launchId = z.string().min(1).max(100);

/** The browser capabilities an app may be granted. */
export const APP_PERMISSIONS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;

/** Schema for the grants of one server's apps. */
export const AppGrantsSchema = z
  .object({
    permissions: z
      .array(z.enum(APP_PERMISSIONS))
      .max(APP_PERMISSIONS.length)
      .refine((list) => new Set(list).size === list.length, 'Each permission may be listed once'),
    popups: z.boolean(),
    sampling: z.boolean().optional(),
  })
  .strict();

/** Validators for the apps domain's arguments. */
export const appsArgSchemas = {
  'apps.open': z.object({ callId: z.string().min(1).max(200) }).strict(),
  'apps.prefetch': z.object({ tool: z.string().min(1).max(512) }).strict(),
  'apps.close': z.object({ launchId }).strict(),
  'apps.callTool': z
    .object({ launchId, name: z.string().min(1).max(512), arguments: z.record(z.string(), z.unknown()).optional() })
    .strict(),
  'apps.readResource': z.object({ launchId, uri: z.string().min(1).max(8192) }).strict(),
  'apps.listResources': z.object({ launchId, cursor: z.string().max(65536).optional() }).strict(),
  'apps.listResourceTemplates': z.object({ launchId }).strict(),
  'apps.checkLink': z.object({ launchId, url: z.string().min(1).max(8192) }).strict(),
  'apps.openLink': z.object({ launchId, url: z.string().min(1).max(8192) }).strict(),
  'apps.createMessage': z.object({ launchId, params: z.record(z.string(), z.unknown()) }).strict(),
  'apps.openWindow': z.object({ callId: z.string().min(1).max(200) }).strict(),
  'apps.server': z.object({ serverId: id }).strict(),
  'apps.setGrants': z.object({ serverId: id, grants: AppGrantsSchema }).strict(),
} satisfies Record<keyof AppsInvokeMap, z.ZodType>;

/** Event names of the apps domain. */
export const appsEventKeys = { 'apps.grantsChanged': true } satisfies Record<keyof AppsEventMap, true>;
