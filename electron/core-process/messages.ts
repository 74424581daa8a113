// The messages between the shell process and the core process. The contract's own methods and events cross as
// `invoke` / `result` / `event` carrying the contract's keys unchanged (the core's dispatcher validates them, the
// shell forwards them): no method is written here a second time. The rest is what only the shell and the core say to
// each other: start-up, the shell's capabilities the core borrows (the system browser, safeStorage), what the shell
// must answer synchronously (the app sandbox's launches), and shutdown.
import type { AppNotice, EventKey, IpcEnvelope } from '../../shared/contract.js';
import type { SandboxPageInput } from '../core/apps/sandbox-page.js';
import type { SignInRequest } from '../core/auth/auth-ports.js';
import type { GatewayLauncher } from '../core/gateway/setup-help.js';
import type { ShutdownReport } from '../core/lifecycle/shutdown.js';
import type { ViewerState } from '../core/presence.js';
import type { LocalPackages } from '../core/registry/install-options.js';

/** What the shell tells a new core before anything else. */
export interface CoreInit {
  t: 'init';
  mode: 'electron' | 'headless';
  version: string;
  /** The data folder (the shell holds its lock). */
  dataDir: string;
  /** 'memory' skips the keychain (tests). */
  credentials: 'auto' | 'memory';
  /** Whether the shell can encrypt with safeStorage (the fallback credential store when no keychain answers). */
  safeStorage?: { backend?: string };
  /** How other apps start the gateway's stdio entry point. */
  gatewayLauncher?: GatewayLauncher;
  /** Test-only registry mapping (never set in normal use). */
  localPackages?: LocalPackages;
  /** Where the shell serves the MCP Apps sandbox. */
  sandbox?: SandboxPlace;
  /** Notices the shell raises through the new core (e.g. that the previous core stopped and was restarted). */
  notices: AppNotice[];
  /** This core replaces one that died: end the server process groups it left, and say so. */
  replacesCrashedCore: boolean;
  /** Echo warnings and errors of the core's log to stderr (headless). */
  echoLog: boolean;
  /** Settings written through electron-store (the desktop app) rather than conf itself: the same file and format. */
  settingsThrough?: 'electron-store';
}

/** Where the shell serves the app sandbox: a launch's page is `pagePrefix` + the launch id, URL-encoded. */
export interface SandboxPlace {
  pagePrefix: string;
  warmUrl: string;
  /** Loopback ports the shell listens on (an app may never reach them). */
  reservedPorts: number[];
}

/** A contract call relayed from a renderer. */
export interface InvokeMessage {
  t: 'invoke';
  id: number;
  method: string;
  args: unknown;
}

/** One viewer (window or page) was shown, hidden or is gone (`null`). */
export interface PresenceMessage {
  t: 'presence';
  viewer: string;
  state: ViewerState | null;
}

/** An install link the shell received (second launch, protocol handler). */
export interface LinkMessage {
  t: 'link';
  link: string;
}

/** The shell asks the core to shut down within `timeoutMs`. */
export interface ShutdownMessage {
  t: 'shutdown';
  timeoutMs: number;
}

/** The shell's answer to a core request. */
export interface ReplyMessage {
  t: 'reply';
  id: number;
  ok: boolean;
  /** The answer (ok) or the error message. */
  value: unknown;
}

/** Everything the shell sends the core. */
export type ShellToCore = CoreInit | InvokeMessage | PresenceMessage | LinkMessage | ShutdownMessage | ReplyMessage;

/** The core is built and serving (the shell may relay calls). */
export interface ReadyMessage {
  t: 'ready';
  /** The core's log file (named in notices about it). */
  logFile: string | null;
}

/** The core could not start. */
export interface FailedMessage {
  t: 'failed';
  message: string;
}

/** The answer to one relayed call. */
export interface ResultMessage {
  t: 'result';
  id: number;
  envelope: IpcEnvelope<unknown>;
}

/** A contract event for every renderer. */
export interface EventMessage {
  t: 'event';
  key: EventKey;
  payload: unknown;
}

/** An app launch opened (`input`) or closed (`null`): the shell answers its sandbox page from this. */
export interface SandboxLaunchMessage {
  t: 'sandboxLaunch';
  id: string;
  input: SandboxPageInput | null;
}

/** What the core asks of the shell. */
export type ShellRequest =
  | { op: 'openExternal'; url: string }
  | { op: 'openAppWindow'; callId: string }
  | { op: 'safeStorage.available' }
  | { op: 'safeStorage.encrypt'; plain: string }
  | { op: 'safeStorage.decrypt'; cipher: string }
  | MemorySecretsRequest
  | GatewayDoorRequest
  | SignInRequest;

/** The gateway's port is held by the shell (it outlives a core): the core's front listens privately behind it. */
export type GatewayDoorRequest = { op: 'gatewayDoor.open'; port: number; upstream: number } | { op: 'gatewayDoor.close' };

/** The in-memory secrets (no keychain, no safeStorage) are held by the shell, so a core restart does not lose them. */
export type MemorySecretsRequest =
  | { op: 'memorySecrets.get'; account: string }
  | { op: 'memorySecrets.set'; account: string; value: string }
  | { op: 'memorySecrets.delete'; account: string }
  | { op: 'memorySecrets.accounts' };

/** A request to the shell, answered by a `reply` with the same id. */
export type RequestMessage = { t: 'request'; id: number } & ShellRequest;

/** The core finished its shutdown (it exits right after). */
export interface StoppedMessage {
  t: 'stopped';
  report: ShutdownReport;
}

/** Everything the core sends the shell. */
export type CoreToShell =
  ReadyMessage | FailedMessage | ResultMessage | EventMessage | SandboxLaunchMessage | RequestMessage | StoppedMessage;

/** One end of the shell↔core link (Node's child IPC or Electron's parent port, adapted). */
export interface MessageLink<In, Out> {
  /** Sends one message; false when it could not be sent (the other end is gone, or it cannot be cloned). */
  post(message: Out): boolean;
  /** Receives every message. */
  onMessage(listener: (message: In) => void): void;
}
