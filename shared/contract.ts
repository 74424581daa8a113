// The one typed contract between the renderer and the core: the views shared across domains, and the method and event
// maps assembled from the domains in shared/domains/ (contract-schemas.ts assembles their runtime side the same way).
//
// Adding a method touches four files:
//   1. shared/domains/<domain>.ts: the method's type in <Domain>InvokeMap and its argument validator in
//      <domain>ArgSchemas (the compiler checks the validator's output against the type, see contract-schemas.ts);
//   2. its handler in electron/core/<domain>/*-handlers.ts (app.* and servers.*: electron/core/handlers.ts); a missing
//      one does not compile;
//   3. the core service that does the work;
//   4. the renderer slice or component that calls `api['<domain>.<verb>'](args)` (renderer/src/bridge).
// The preload, the IPC registration, the headless bridge and the renderer's api are generated from the key list.
// A new domain adds its maps to InvokeMap/EventMap below and its validators and event keys to contract-schemas.ts.
import type { AppErrorData } from './errors.js';
import type { ServerConfigInput, TransportKind } from './config.js';
import type { AppEventMap, AppInvokeMap } from './domains/app.js';
import type { AppsEventMap, AppsInvokeMap } from './domains/apps.js';
import type { AuthInvokeMap, AuthStatus } from './domains/auth.js';
import type { CallOutcome, CallProgress, CallsInvokeMap } from './domains/calls.js';
import type { CatalogInvokeMap } from './domains/catalog.js';
import type { EventsEventMap, EventsInvokeMap } from './domains/events.js';
import type { GatewayEventMap, GatewayInvokeMap } from './domains/gateway.js';
import type { ProtocolEventMap, ProtocolInvokeMap } from './domains/protocol.js';
import type { RegistryEventMap, RegistryInvokeMap } from './domains/registry.js';
import type { ElicitationRequestView, ResourcesInvokeMap } from './domains/resources.js';
import type { ServersInvokeMap } from './domains/servers.js';
import type { SkillsInvokeMap } from './domains/skills.js';

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
  /** Extension ids the server declared under `capabilities.extensions` (e.g. io.modelcontextprotocol/skills). */
  extensions?: string[];
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
        cwd?: string | undefined;
        env: Record<string, string | SecretRef>;
        inheritEnv: boolean;
      }
    | { type: 'http' | 'sse'; url: string; headers: Record<string, string | SecretRef>; allowInsecureHttp: boolean };
};

/** One difference between the launch last approved and the current one. */
export interface LaunchChange {
  /** Which part of the launch changed. */
  field: 'command' | 'arg' | 'cwd' | 'env' | 'inheritEnv';
  /**
   * Whether it was added, removed or changed; 'missing': a secret env value in the approved launch is no longer
   * stored (lost with a credential store that does not survive a restart), which only entering it again fixes.
   */
  change: 'added' | 'removed' | 'changed' | 'missing';
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
  /** Secret env variables the approved launch had whose value is no longer stored: approval waits until each is entered again. */
  lostSecrets: string[];
  /** What parts of this launch do beyond running the program named (a shell string, host access, preloaded code). */
  warnings: LaunchWarning[];
}

/** Kinds of launch warning: a package runner or shell running a string or another package, an interpreter given inline code, a container with host access, code-loading env. */
export type LaunchWarningCode =
  | 'npx_shell_command'
  | 'npx_other_package'
  | 'runner_shell_command'
  | 'runner_other_package'
  | 'runner_other_registry'
  | 'shell_command'
  | 'inline_code'
  | 'container_privileged'
  | 'container_host_root'
  | 'container_engine_socket'
  | 'container_host_network'
  | 'container_host_pid'
  | 'container_host_namespace'
  | 'container_capability'
  | 'container_device'
  | 'container_unconfined'
  | 'env_node_options'
  | 'env_library_preload'
  | 'env_library_path'
  | 'env_python_startup'
  | 'env_module_path'
  | 'env_interpreter_options'
  | 'env_shell_startup';

/** One thing an approval panel says plainly about a launch before it is approved. */
export interface LaunchWarning {
  /** Which pattern it is. */
  code: LaunchWarningCode;
  /** What it does, in plain words (quotes the argument it is about; never an env value). */
  text: string;
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
  /** Where a stdio server's process runs: its own working directory, else its folder in the data folder. */
  workDir?: string;
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
/** Every call the renderer can make into the core: name → (argument object) → result, one map per domain. */
export interface InvokeMap
  extends
    AppInvokeMap,
    ServersInvokeMap,
    CatalogInvokeMap,
    CallsInvokeMap,
    AuthInvokeMap,
    ResourcesInvokeMap,
    EventsInvokeMap,
    GatewayInvokeMap,
    AppsInvokeMap,
    RegistryInvokeMap,
    ProtocolInvokeMap,
    SkillsInvokeMap {}

/** Every event the core pushes to the renderer: name → payload. Newer domains declare theirs in shared/domains/. */
export interface EventMap extends AppEventMap, EventsEventMap, GatewayEventMap, AppsEventMap, RegistryEventMap, ProtocolEventMap {
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
