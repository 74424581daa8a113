// The one typed contract between the renderer and the core. Types only: the runtime
// key lists and argument validators live in contract-schemas.ts, checked against these maps.
import type { AppErrorData } from './errors.js';
import type { ServerConfigInput, TransportKind } from './config.js';
import type { AuthStatus, ClientSettingsInput } from './domains/auth.js';
import type { AuditedEnvelope, CallOutcome, CallProgress, ExportTestArgs, HistoryEntry } from './domains/calls.js';
import type { CatalogQuery, CatalogSearchResult, CatalogSelection, GroupCard, RefreshReport, ToolDetail } from './domains/catalog.js';
import type {
  ElicitationRequestView,
  PromptItem,
  PromptMessageView,
  ResourceItem,
  ResourceReadResult,
  ResourceTemplateItem,
} from './domains/resources.js';
import type { AppsEventMap, AppsInvokeMap } from './domains/apps.js';
import type { EventsEventMap, EventsInvokeMap } from './domains/events.js';
import type { GatewayEventMap, GatewayInvokeMap } from './domains/gateway.js';
import type { ProtocolEventMap, ProtocolInvokeMap } from './domains/protocol.js';
import type { RegistryEventMap, RegistryInvokeMap } from './domains/registry.js';
import type { DoctorWalk } from './domains/doctor.js';

/** A notice shown to the user at start-up or later (corrupt settings moved aside, memory-only credentials, ...). */
export interface AppNotice {
  /** Stable id so the renderer can dismiss it. */
  id: string;
  /** How loud the notice is. */
  level: 'info' | 'warning' | 'error';
  /** Plain-words message. */
  message: string;
}

/** A server process group from an earlier run that is still running (the host was killed before it could end it). */
export interface LeftoverProcess {
  /** Process group id (the group leader's pid). */
  pgid: number;
  /** Id of the server it was started for. */
  serverId: string;
  /** Its command line as text (bounded, control characters removed). */
  command: string;
  /** When it was started (ISO 8601). */
  startedAt: string;
}

/** Facts about the running app. */
export interface AppInfo {
  /** Product name. */
  name: string;
  /** App version from package.json. */
  version: string;
  /** Which shell hosts the core. */
  mode: 'electron' | 'headless';
  /** Node's platform string. */
  platform: string;
  /** Folder holding the settings file. */
  dataDir: string;
  /** The log file (rotating, in the data folder), or null when this shell keeps no log file. */
  logFile: string | null;
  /** Notices the user should see. */
  notices: AppNotice[];
  /** Where credentials are kept, and whether they survive a restart. */
  credentialStore: { kind: 'keychain' | 'safeStorage' | 'memory'; persistent: boolean };
  /** Whether the first-run demo server offer should be shown. */
  offerDemo: boolean;
  /** The MCP Apps sandbox's warm-up page (loaded ahead of an app so it opens sooner), or null without a sandbox. */
  appsWarmUrl: string | null;
}

/** Connection states a server can be in. */
export type ConnectionState = 'disconnected' | 'connecting' | 'connected' | 'failed' | 'needs-auth';

/** A server's live connection status, readable without connecting. */
export interface ServerStatus {
  /** Current state. */
  state: ConnectionState;
  /** Why the server is failed, needs auth or needs approval. */
  error?: AppErrorData;
  /** When the state last changed (ms since epoch). */
  since: number;
  /** Negotiated protocol revision once connected. */
  protocolVersion?: string;
  /** Which lifecycle actually connected: the discovery probe or the legacy handshake. */
  lifecycle?: 'discover' | 'initialize';
  /** Consecutive failed attempts (drives backoff). */
  failures: number;
  /** Earliest time the next automatic attempt may start (ms since epoch), when backing off. */
  retryAt?: number;
  /** Notifications dropped from this server since it was registered (over the logging/progress budget). */
  droppedNotifications?: number;
}

/** What a connected server said about itself (all untrusted text). */
export interface ServerIdentity {
  /** Implementation name. */
  name: string;
  /** Human title, when given. */
  title?: string;
  /** Implementation version. */
  version: string;
  /** Server-supplied description, when given. */
  description?: string;
  /** Usage instructions, control and bidi characters stripped. */
  instructions?: string;
  /** Capability names the server advertised (tools, resources, prompts, ...). */
  capabilities: string[];
}

/** A secret env value as the renderer sees it: never the value, only whether one is stored. */
export interface SecretRef {
  /** Marks the value as secret. */
  secret: true;
  /** Whether a value is stored in the credential store. */
  isSet: boolean;
}

/** A server definition as shown to the renderer: secret values replaced by SecretRef. */
export type ServerConfigView = Omit<ServerConfigInput, 'transport'> & {
  /** The transport, with secret env and header values masked. */
  transport:
    | {
        type: 'stdio';
        command: string;
        args: string[];
        cwd?: string;
        env: Record<string, string | SecretRef>;
        inheritEnv: boolean;
      }
    | { type: 'http' | 'sse'; url: string; headers: Record<string, string | SecretRef>; allowInsecureHttp: boolean };
};

/** One difference between the launch last approved and the current one. */
export interface LaunchChange {
  /** Which part of the launch changed. */
  field: 'command' | 'arg' | 'cwd' | 'env' | 'inheritEnv';
  /** Whether it was added, removed or changed. */
  change: 'added' | 'removed' | 'changed';
  /** The environment variable's name (env changes). */
  name?: string;
  /** Position of the argument, 0-based (arg changes: in the current list, or in the approved one when removed). */
  index?: number;
  /** Whether the env variable is (or, when removed, was) secret. */
  secret?: boolean;
  /** The approved value, where it may be shown (command, args, cwd, inheritEnv; never an env value). */
  before?: string;
  /** The current value, where it may be shown (never a secret env value). */
  after?: string;
  /** Plain-words line for the approval panel. */
  summary: string;
}

/** One environment variable of a launch as the approval panel shows it. */
export interface LaunchEnvView {
  /** Variable name. */
  name: string;
  /** Whether the value is secret (then it is never shown). */
  secret: boolean;
  /** The value, for plain variables. */
  value?: string;
  /** For secret variables: whether a value is stored. */
  isSet?: boolean;
}

/** The exact launch a stdio server needs approved before it is spawned. */
export interface LaunchApproval {
  /** Whether the current launch still needs the user's approval. */
  required: boolean;
  /** Fingerprint of command, args, cwd, inheritEnv and every env value (secrets by keyed digest); sent back with servers.approve. */
  fingerprint: string;
  /** Program to run. */
  command: string;
  /** Arguments, untruncated. */
  args: string[];
  /** Working directory, when set. */
  cwd?: string;
  /** Names of the environment variables passed. */
  envKeys: string[];
  /** Every environment variable passed: plain values shown, secret ones only named. */
  env: LaunchEnvView[];
  /** Whether the whole parent environment is inherited. */
  inheritEnv: boolean;
  /** The last approval of this server: none, one from before env values were covered ('legacy'), or a current one. */
  lastApproval: 'none' | 'legacy' | 'approved';
  /** What changed since the last approval (empty when there is none to compare with, or nothing changed). */
  changes: LaunchChange[];
}

/** One row of the server list. */
export interface ServerSummary {
  /** Server id. */
  id: string;
  /** Display name. */
  name: string;
  /** Whether the server is enabled. */
  enabled: boolean;
  /** Transport kind. */
  transport: TransportKind;
  /** Command line or URL, for display. */
  target: string;
  /** Live status. */
  status: ServerStatus;
  /** Whether a stdio launch awaits approval. */
  needsApproval: boolean;
}

/** Everything the server page shows about one server. */
export interface ServerDetail extends ServerSummary {
  /** The definition, secrets masked. */
  config: ServerConfigView;
  /** Launch approval state (stdio only). */
  approval?: LaunchApproval;
  /** What the server said about itself, once connected. */
  identity?: ServerIdentity;
}

/** One diagnostic log line of a server: stderr output or a protocol/lifecycle event. */
export interface LogEntry {
  /** Monotonic sequence number per server. */
  seq: number;
  /** When it was recorded (ms since epoch). */
  time: number;
  /** Where it came from. */
  source: 'stderr' | 'stdout' | 'lifecycle' | 'protocol';
  /** How important it is. */
  level: 'debug' | 'info' | 'warning' | 'error';
  /** The text, control characters stripped. */
  text: string;
}

/** Config file formats Switchboard can import and export. */
export type ImportFormat = 'claude' | 'vscode' | 'cursor';

/** A secret the user must supply for an imported entry (VS Code `inputs`). */
export interface ImportSecretPrompt {
  /** The env variable or header the secret fills. */
  envKey: string;
  /** The input's id in the source file. */
  inputId: string;
  /** The input's description, as untrusted text. */
  description: string;
}

/** One entry of an import preview. */
export interface ImportEntry {
  /** The entry's name in the source file. */
  key: string;
  /** Id the server would get. */
  id: string;
  /** valid: will be created; invalid: cannot be; clash: id already used. */
  status: 'valid' | 'invalid' | 'clash';
  /** Why it is invalid or clashes. */
  reasons: string[];
  /** Transport kind, when it could be determined. */
  transport?: TransportKind;
  /** Command line or URL, for display. */
  target?: string;
  /** Secrets to ask for before saving. */
  secretPrompts: ImportSecretPrompt[];
  /** An `Authorization: Bearer …` header becomes the server's bearer token, kept in the credential store (never shown). */
  bearerToken?: boolean;
}

/** Result of previewing an import: nothing has been saved. */
export interface ImportPreview {
  /** Format that was detected or requested. */
  format: ImportFormat;
  /** Every entry found. */
  entries: ImportEntry[];
}

/** Result of applying an import. */
export interface ImportResult {
  /** Ids created. */
  added: string[];
  /** Entries skipped, with the reason. */
  skipped: { key: string; reason: string }[];
}

/** Every call the renderer can make into the core: name → (argument object) → result. Newer domains declare theirs in shared/domains/. */
export interface InvokeMap extends EventsInvokeMap, GatewayInvokeMap, AppsInvokeMap, RegistryInvokeMap, ProtocolInvokeMap {
  /** Facts about the running app and its notices. */
  'app.info': (args: Record<string, never>) => Promise<AppInfo>;
  /** Dismisses a notice by id. */
  'app.dismissNotice': (args: { id: string }) => Promise<void>;
  /** The renderer has attached its event listeners: events held back since its page (re)loaded may be sent now. */
  'app.listening': (args: Record<string, never>) => Promise<void>;
  /** Opens an http(s) link the person clicked (e.g. in a Markdown preview) through the safe opener; headless prints it. */
  'app.openLink': (args: { url: string }) => Promise<void>;
  /** Server process groups from an earlier run that are still running and verified as that run's. */
  'app.leftovers': (args: Record<string, never>) => Promise<LeftoverProcess[]>;
  /** Ends listed leftover groups (SIGTERM, then SIGKILL); `not_found` for a pgid that is not listed. */
  'app.endLeftovers': (args: { pgids: number[] }) => Promise<{ ended: LeftoverProcess[]; remaining: LeftoverProcess[] }>;
  /** Lists all servers with their status. */
  'servers.list': (args: Record<string, never>) => Promise<ServerSummary[]>;
  /** One server's full detail. */
  'servers.get': (args: { id: string }) => Promise<ServerDetail>;
  /** Adds a server definition; a bearer token (HTTP/SSE) is stored in the credential store before its first connect. */
  'servers.add': (args: { config: ServerConfigInput; bearerToken?: string }) => Promise<ServerDetail>;
  /** Replaces a server definition (reconnects with the new config). */
  'servers.update': (args: { id: string; config: ServerConfigInput }) => Promise<ServerDetail>;
  /** Removes a server, releasing its session; its sign-in credentials too when asked. */
  'servers.remove': (args: { id: string; deleteCredentials?: boolean }) => Promise<void>;
  /** Parses pasted or picked config text and previews what an import would create. */
  'servers.importPreview': (args: { text: string; format?: ImportFormat }) => Promise<ImportPreview>;
  /** Imports the chosen valid entries of config text; clashes are reported, never overwritten. */
  'servers.import': (args: {
    text: string;
    format?: ImportFormat;
    keys?: string[];
    secrets?: Record<string, Record<string, string>>;
  }) => Promise<ImportResult>;
  /** Exports server definitions in another app's format, without secret values. */
  'servers.export': (args: { format: ImportFormat; ids?: string[] }) => Promise<{ format: ImportFormat; fileName: string; text: string }>;
  /** Adds the built-in demo server. */
  'servers.addDemo': (args: Record<string, never>) => Promise<ServerDetail>;
  /** Connects a server now (shares an in-flight connect). */
  'servers.connect': (args: { id: string }) => Promise<ServerStatus>;
  /** Drops a server's session but keeps it registered. */
  'servers.disconnect': (args: { id: string }) => Promise<ServerStatus>;
  /** Disconnects and connects again. */
  'servers.restart': (args: { id: string }) => Promise<ServerStatus>;
  /** Approves the exact stdio launch the user was shown. */
  'servers.approve': (args: { id: string; fingerprint: string }) => Promise<ServerDetail>;
  /** A server's status, without connecting. */
  'servers.status': (args: { id: string }) => Promise<ServerStatus>;
  /** A server's recent log lines. */
  'servers.logs': (args: { id: string }) => Promise<LogEntry[]>;
  /**
   * Runs the connection doctor's walk on a definition (saved or not) without saving anything. For stdio, the walk
   * spawns the command only when `approvedLaunch` is the fingerprint of the exact launch the person was shown (this
   * request is the approval of that one test run) or the saved server's launch is approved; otherwise it stops
   * before spawning and returns the launch to show. `id` names the saved server a definition belongs to (its stored
   * secrets and sign-in are used).
   */
  'servers.test': (args: { config?: ServerConfigInput; id?: string; approvedLaunch?: string }) => Promise<DoctorWalk>;

  /** The capability groups directory (one per server, no schemas). */
  'catalog.groups': (args: { includeMembers?: boolean }) => Promise<GroupCard[]>;
  /** Full schemas of a group's members or of named tools, within the discovery byte budget. */
  'catalog.select': (args: { group?: string; tools?: string[] }) => Promise<CatalogSelection>;
  /** Ranked search across every server, with filters and paging. */
  'catalog.search': (args: CatalogQuery) => Promise<CatalogSearchResult>;
  /** One tool's detail by local name. */
  'catalog.tool': (args: { name: string }) => Promise<ToolDetail>;
  /** Re-lists tools of one server or all (clears the response cache first). */
  'catalog.refresh': (args: { id?: string }) => Promise<RefreshReport>;
  /** Approves a tool's current definition (the fingerprint the user saw). */
  'catalog.approveTool': (args: { name: string; fingerprint: string }) => Promise<ToolDetail>;

  /** Calls a tool by local name; resolves when the call ends. */
  'tools.call': (args: { name: string; arguments: Record<string, unknown>; callId?: string }) => Promise<CallOutcome>;
  /** Cancels a running call. */
  'tools.cancel': (args: { callId: string }) => Promise<void>;
  /** Searches the call history, newest first. */
  'calls.history': (args: {
    query?: string;
    offset?: number;
    limit?: number;
    savedOnly?: boolean;
  }) => Promise<{ entries: HistoryEntry[]; total: number }>;
  /** The full audited envelope of one call. */
  'calls.result': (args: { callId: string }) => Promise<AuditedEnvelope>;
  /** Saves a call under a name. */
  'calls.save': (args: { callId: string; name: string }) => Promise<HistoryEntry>;
  /** Clears the history (saved calls are kept unless `includeSaved`). */
  'calls.clear': (args: { includeSaved?: boolean }) => Promise<void>;
  /** The history as JSON text. */
  'calls.export': (args: Record<string, never>) => Promise<{ fileName: string; text: string }>;
  /** Saved calls as a Playwright spec using switchboard/testing (secrets read from environment variables). */
  'calls.exportTest': (args: ExportTestArgs) => Promise<{ fileName: string; text: string }>;

  /** A server's authorization state. */
  'auth.status': (args: { id: string }) => Promise<AuthStatus>;
  /** Starts an interactive sign-in; opens the system browser in the app, returns the URL in any case. */
  'auth.begin': (args: { id: string }) => Promise<AuthStatus>;
  /** Completes a sign-in with the redirect URL pasted from the browser. */
  'auth.complete': (args: { id: string; redirectUrl: string }) => Promise<AuthStatus>;
  /** Deletes stored credentials (next connect needs sign-in). */
  'auth.signOut': (args: { id: string }) => Promise<AuthStatus>;
  /** Starts a device sign-in (RFC 8628): resolves with the code to enter and where; the core polls until it is entered. */
  'auth.deviceStart': (args: { id: string }) => Promise<AuthStatus>;
  /** Stops a device sign-in in progress. */
  'auth.deviceCancel': (args: { id: string }) => Promise<AuthStatus>;
  /** Opens the device sign-in's verification page through the safe opener (headless mode prints it). */
  'auth.deviceOpen': (args: { id: string }) => Promise<void>;
  /** Sets or clears a static bearer token. */
  'auth.setBearer': (args: { id: string; token: string | null }) => Promise<AuthStatus>;
  /** Sets a pre-registered or client-credentials client. */
  'auth.setClient': (args: { id: string; client: ClientSettingsInput | null }) => Promise<AuthStatus>;

  /** A page of a server's resources. */
  'resources.list': (args: { id: string; cursor?: string }) => Promise<{ resources: ResourceItem[]; nextCursor?: string }>;
  /** A server's resource templates. */
  'resources.templates': (args: { id: string }) => Promise<{ templates: ResourceTemplateItem[] }>;
  /** Reads one resource (or a template expanded with its variables), bounded. */
  'resources.read': (
    args: { id: string; uri: string } | { id: string; uriTemplate: string; variables: Record<string, string> },
  ) => Promise<ResourceReadResult>;
  /** Subscribes to updates of one resource. */
  'resources.subscribe': (args: { id: string; uri: string }) => Promise<void>;
  /** Unsubscribes from one resource. */
  'resources.unsubscribe': (args: { id: string; uri: string }) => Promise<void>;
  /** A server's prompts. */
  'prompts.list': (args: { id: string }) => Promise<{ prompts: PromptItem[] }>;
  /** Renders a prompt with arguments. */
  'prompts.get': (args: {
    id: string;
    name: string;
    arguments: Record<string, string>;
  }) => Promise<{ description?: string; messages: PromptMessageView[] }>;
  /** Completion suggestions for a prompt or template argument. */
  'completion.complete': (args: {
    id: string;
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
    argument: { name: string; value: string };
    context?: Record<string, string>;
  }) => Promise<{ values: string[]; hasMore: boolean }>;
  /** Pending elicitation requests (for a renderer that attaches late). */
  'elicitation.pending': (args: Record<string, never>) => Promise<ElicitationRequestView[]>;
  /** Answers an elicitation request. */
  'elicitation.respond': (args: {
    requestId: string;
    action: 'accept' | 'decline' | 'cancel';
    content?: Record<string, unknown>;
  }) => Promise<void>;
}

/** Every event the core pushes to the renderer: name → payload. Newer domains declare theirs in shared/domains/. */
export interface EventMap extends EventsEventMap, GatewayEventMap, AppsEventMap, RegistryEventMap, ProtocolEventMap {
  /** The set of servers or a definition changed. */
  'servers.changed': { servers: ServerSummary[] };
  /** One server's status changed. */
  'servers.status': { id: string; status: ServerStatus };
  /** One server logged a line. */
  'servers.log': { id: string; entry: LogEntry };
  /** The app's notices changed. */
  'app.notices': { notices: AppNotice[] };
  /** The published catalog changed. */
  'catalog.changed': { revision: number; serverIds: string[] };
  /** Progress of a running call. */
  'call.progress': CallProgress;
  /** A call ended. */
  'call.finished': CallOutcome;
  /** A server's authorization state changed. */
  'auth.changed': AuthStatus;
  /** A subscribed resource changed. */
  'resources.updated': { id: string; uri: string };
  /** A server's resource list changed. */
  'resources.listChanged': { id: string };
  /** A resource subscription could not be re-established after the server reconnected; it is gone. */
  'resources.subscriptionLost': { id: string; uri: string; reason: string };
  /** A server's prompt list changed. */
  'prompts.listChanged': { id: string };
  /** A server asks the user for input. */
  'elicitation.requested': { request: ElicitationRequestView; queueLength: number };
  /** A pending request was cancelled (timeout, session closed, server said complete). */
  'elicitation.cancelled': { requestId: string; reason: string; queueLength: number };
}

/** A contract method name. */
export type InvokeKey = keyof InvokeMap;
/** A contract event name. */
export type EventKey = keyof EventMap;
/** The argument object of a contract method. */
export type InvokeArgs<K extends InvokeKey> = Parameters<InvokeMap[K]>[0];
/** The resolved result of a contract method. */
export type InvokeResult<K extends InvokeKey> = Awaited<ReturnType<InvokeMap[K]>>;
/** What crosses Electron IPC for one call: the result, or the error as data. */
export type IpcEnvelope<T> = { ok: true; value: T } | { ok: false; error: AppErrorData };
/** The renderer-facing API: one typed function per method, plus typed event subscription. */
export type BridgeApi = {
  [K in InvokeKey]: (args: InvokeArgs<K>) => Promise<InvokeResult<K>>;
};
/** Subscribes to one event; returns the unsubscribe function. */
export type EventSubscriber = <E extends EventKey>(event: E, listener: (payload: EventMap[E]) => void) => () => void;
