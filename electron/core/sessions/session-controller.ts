// The port between the Host (definitions, persistence) and the live MCP sessions.
import type { Client } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/config.js';
import type { LogEntry, ServerIdentity, ServerStatus } from '../../../shared/contract.js';

/** Per-Client hooks (elicitation, resource/prompt notifications) installed by the interaction feature. */
export interface ClientHooks {
  /** Called on every fresh Client before it connects (declare capabilities, register handlers). */
  prepare(client: Client, config: ServerConfig): void;
  /** A session connected. */
  connected(id: string, client: Client): void;
  /** A session closed (asked or not): pending server requests are cancelled. */
  closed(id: string): void;
}

/** Outcome of connecting every enabled server at start-up. */
export interface StartupReport {
  /** Required servers that failed, with the reason. */
  requiredFailures: { id: string; message: string }[];
}

/** Owns one session per configured server and keeps it healthy. */
export interface SessionController {
  /** Registers a new server (connects it per its startup policy). */
  register(config: ServerConfig): void;
  /** Replaces a server's definition; a live session reconnects with the new config (or when `secretsChanged`: same definition, new secret values). */
  update(config: ServerConfig, opts?: { secretsChanged?: boolean }): void;
  /** Forgets a server: cancels an in-flight connect and releases its session. */
  remove(id: string): Promise<void>;
  /** Status without connecting. */
  status(id: string): ServerStatus;
  /** What the server said about itself, when connected. */
  identity(id: string): ServerIdentity | undefined;
  /** Connects now, sharing an in-flight connect. */
  connect(id: string): Promise<ServerStatus>;
  /** Drops the session and keeps the server registered. */
  disconnect(id: string): Promise<ServerStatus>;
  /** Disconnects, then connects. */
  restart(id: string): Promise<ServerStatus>;
  /** Recent log lines. */
  logs(id: string): LogEntry[];
  /** Adds a line to a server's log (features other than the session itself, e.g. events). */
  note?(id: string, level: 'info' | 'warning', text: string): void;
  /** The live SDK client, connecting first if needed (honours backoff); rejects with the connection's AppError. */
  client(id: string): Promise<Client>;
  /** The live SDK client when the server is connected now (what `client` would resolve with at once), else undefined. */
  connectedClient?(id: string): Client | undefined;
  /** Empties a server's SDK response cache (an explicit refresh re-lists from the server). */
  clearResponseCache(id: string): void;
  /** Connects every enabled eager/background server concurrently. */
  startAll(): Promise<StartupReport>;
  /** Releases every session. */
  shutdown(): Promise<void>;
}
