// Contract types for the gateway that serves Switchboard's connections to other MCP apps.
import { z } from 'zod';
import { ServerIdSchema } from '../config.js';

/** How a client sees tools: every visible tool at once, or only the discovery tools until it selects some. */
export type GatewayMode = 'all' | 'progressive';

/** What happens to a call of a tool the person has not allowed for the client (a server's read-only hint never counts). */
export type GatewayWritePolicy = 'allow' | 'deny' | 'ask';

/** What a client token may see and do. */
export interface GatewayProfile {
  /** `all`: every visible tool under its local name; `progressive`: `tools_groups`/`tools_select`/`tools_search` first. */
  mode: GatewayMode;
  /** Server ids visible to the client (with `groups`: their union; both absent: every server). */
  servers?: string[];
  /** Capability group ids (`mcp:<server>`) visible to the client. */
  groups?: string[];
  /** Policy for tools the person has not allowed for this client (default `ask`). */
  writes?: GatewayWritePolicy;
  /** `original` serves a single-server profile under the server's own tool, prompt and resource names (mode `all` only). */
  names?: 'local' | 'original';
}

/** The last thing a client did. */
export interface GatewayLastActivity {
  /** When (ms since epoch). */
  at: number;
  /** What it was, in plain words (e.g. "called mcp__files__read"). */
  summary: string;
}

/** One gateway client as the renderer sees it (never its token). */
export interface GatewayClientView {
  /** Client id (part of its token, not secret). */
  id: string;
  /** Display name; also what `switchboard-gateway --client NAME` names. */
  name: string;
  /** What it may see and do. */
  profile: GatewayProfile;
  /** When it was added (ms since epoch). */
  createdAt: number;
  /** The last thing it did, if anything. */
  lastActivity?: GatewayLastActivity;
  /** Live sessions: 2025-11-25 HTTP sessions plus open 2026-07-28 listen streams. */
  sessions: number;
  /** Calls running now. */
  runningCalls: number;
  /** Profile entries that name servers which no longer exist. */
  missing: string[];
  /** Tools the person allowed for this client without asking, each pinned to the definition they allowed. */
  trustedTools: GatewayTrustedTool[];
  /** Its token is not in the credential store, so it cannot connect over HTTP until a new one is issued (absent: the token is there). */
  tokenLost?: GatewayTokenLoss;
}

/** Why a client's token is gone: `not-kept` secrets live in memory only and a restart lost it; `unreadable` the store failed; `missing` it was not in a lasting store. */
export type GatewayTokenLoss = 'not-kept' | 'unreadable' | 'missing';

/** A tool the person allowed for one client ("always allow"); it counts only while the tool is unchanged. */
export interface GatewayTrustedTool {
  /** Local tool name. */
  tool: string;
  /** The tool is listed now with the definition the person allowed (false: changed or gone, so it asks again). */
  current: boolean;
}

/** A call waiting for the person's yes or no (write policy `ask`). */
export interface GatewayRequestView {
  /** Id to answer with gateway.decide. */
  requestId: string;
  /** The asking client. */
  clientId: string;
  /** The asking client's name. */
  clientName: string;
  /** Server of the tool. */
  serverId: string;
  /** The server's display name. */
  serverName: string;
  /** Local tool name. */
  tool: string;
  /** Tool title, when it has one (sanitized). */
  toolTitle?: string;
  /** The arguments as pretty-printed JSON, sanitized and bounded. */
  arguments: string;
  /** The arguments text was cut at its bound: Allow is refused until the whole text was fetched with gateway.requestArguments. */
  argumentsTruncated: boolean;
  /** Characters in the whole arguments text (what `arguments` shows a prefix of when cut). */
  argumentsChars: number;
  /** Size of the arguments as the client sent them (JSON, UTF-8 bytes). */
  argumentsBytes: number;
  /** Size of the part of the arguments text `arguments` leaves out (UTF-8 bytes; 0 when not cut). */
  argumentsHiddenBytes: number;
  /** Hints the server gave (never approval: a read-only hint does not let a call skip the ask). */
  hints: { readOnly?: boolean; destructive?: boolean; openWorld?: boolean };
  /** When the call's deadline ends the wait (ms since epoch). */
  expiresAt: number;
}

/** The gateway's state. */
export interface GatewayStatus {
  /** Turned on (remembered across restarts). */
  enabled: boolean;
  /** Listening now. */
  running: boolean;
  /** `http://127.0.0.1:<port>/mcp` while running. */
  url?: string;
  /** The port (kept across restarts so HTTP configs stay valid). */
  port?: number;
  /** Why it is not running although enabled (e.g. the port is taken). */
  error?: string;
  /** Number of clients. */
  clients: number;
  /** Live sessions across clients. */
  sessions: number;
  /** Calls waiting for a decision. */
  pending: GatewayRequestView[];
  /** Ids of the webhook relay servers: never served to a gateway client, so no profile may name them (sorted). */
  relayServers: string[];
  /** The file the stdio entry point reads (port and launch key, mode 0600), while running. */
  endpointFile?: string;
}

/** One entry of the gateway's activity feed. */
export interface GatewayActivity {
  /** Sequence number (increasing). */
  seq: number;
  /** When (ms since epoch). */
  at: number;
  /** Which client. */
  clientId: string;
  /** Its name. */
  clientName: string;
  /** What happened. */
  kind: 'call' | 'denied' | 'session' | 'selected';
  /** Local tool name, for calls. */
  tool?: string;
  /** How a call ended. */
  status?: 'ok' | 'error' | 'cancelled' | 'timeout';
  /** Wall time of a call in ms. */
  durationMs?: number;
  /** Plain-words detail (sanitized). */
  message: string;
}

/** Apps whose MCP config files the set-up help writes. */
export type GatewaySetupApp = 'claude' | 'cursor' | 'vscode';

/** How the other app reaches the gateway. */
export type GatewaySetupTransport = 'stdio' | 'http';

/** The exact entry for another app's config file, and what writing it would do. */
export interface GatewaySetupPreview {
  /** The app. */
  app: GatewaySetupApp;
  /** How it connects. */
  transport: GatewaySetupTransport;
  /** The config file that would be written. */
  file: string;
  /** Whether the file exists now. */
  exists: boolean;
  /** Key of the entry in the file's server map. */
  entryName: string;
  /** The entry alone, as JSON (the HTTP token is shown as a placeholder unless one was given). */
  entry: string;
  /** The whole file after the change (other entries untouched). */
  preview: string;
  /** An entry with the same key already exists and would be replaced. */
  replaces: boolean;
  /** Things to know (e.g. the HTTP entry puts a token in that app's file). */
  notes: string[];
}

/** Result of writing an entry into another app's config file. */
export interface GatewaySetupResult {
  /** The file written. */
  file: string;
  /** The copy of the previous file, when there was one. */
  backup?: string;
}

/** Arguments that pick a client, an app and a transport for the set-up help. */
export interface GatewaySetupArgs {
  /** Client id. */
  id: string;
  /** Target app. */
  app: GatewaySetupApp;
  /** stdio (`switchboard-gateway --client NAME`) or the HTTP URL with its header. */
  transport: GatewaySetupTransport;
  /** Another config file path for that app (absolute, same file name). */
  file?: string;
  /** The client's token, for an HTTP entry (checked against the client; never stored). */
  token?: string;
}

/** Contract methods of the gateway domain: name → (argument object) → result. */
export interface GatewayInvokeMap {
  /** The gateway's state, with the calls waiting for a decision. */
  'gateway.status': (args: Record<string, never>) => Promise<GatewayStatus>;
  /** Turns the gateway on (on the remembered port, or `port`; 0 picks a free one). */
  'gateway.enable': (args: { port?: number }) => Promise<GatewayStatus>;
  /** Turns the gateway off: closes every session and removes the endpoint file. */
  'gateway.disable': (args: Record<string, never>) => Promise<GatewayStatus>;
  /** The clients with their last activity and live sessions. */
  'gateway.clients': (args: Record<string, never>) => Promise<GatewayClientView[]>;
  /** Adds a client; its token is returned this once. */
  'gateway.addClient': (args: { name: string; profile: GatewayProfile }) => Promise<GatewayClientView & { token: string }>;
  /** Renames a client or changes its profile (its sessions pick the change up at once). */
  'gateway.updateClient': (args: { id: string; name?: string; profile?: GatewayProfile }) => Promise<GatewayClientView>;
  /** Removes a client: its token stops working and its sessions close. */
  'gateway.removeClient': (args: { id: string }) => Promise<void>;
  /** Replaces a client's token (the old one stops working); the new one is returned this once. */
  'gateway.rotateToken': (args: { id: string }) => Promise<GatewayClientView & { token: string }>;
  /** Answers a call waiting for a decision. */
  'gateway.decide': (args: { requestId: string; allow: boolean; always?: boolean }) => Promise<void>;
  /** Allows a tool for a client without asking (pinned to its current definition), or takes that back. */
  'gateway.trustTool': (args: { id: string; tool: string; trusted: boolean }) => Promise<GatewayClientView>;
  /** Recent activity, newest first. */
  'gateway.activity': (args: { limit?: number }) => Promise<GatewayActivity[]>;
  /** The exact entry for another app's config and a preview of its file after the change; nothing is written. */
  'gateway.setupPreview': (args: GatewaySetupArgs) => Promise<GatewaySetupPreview>;
  /** Writes the entry into the other app's config file (backed up first; other entries untouched). */
  'gateway.setupInstall': (args: GatewaySetupArgs) => Promise<GatewaySetupResult>;
  /** The whole arguments text of a waiting call (sanitized, bounded by the gateway's argument limit); opening it lets a cut call be allowed. */
  'gateway.requestArguments': (args: { requestId: string }) => Promise<GatewayRequestArguments>;
}

/** The whole arguments of a waiting call, as text. */
export interface GatewayRequestArguments {
  /** The arguments as pretty-printed JSON (compact when pretty would pass the bound), sanitized. */
  text: string;
  /** Characters in `text`. */
  chars: number;
}

/** Events the core pushes for the gateway domain: name → payload. */
export interface GatewayEventMap {
  /** A call waits for a decision (`request`), or a wait ended (`closed`); `pending` is the whole queue. */
  'gateway.request': {
    request?: GatewayRequestView;
    closed?: { requestId: string; reason: string };
    pending: GatewayRequestView[];
  };
  /** Something happened on the gateway (a call, a session, a denial). */
  'gateway.activity': GatewayActivity;
}

// Argument validators, one per method above: run before any handler, their shapes checked against the method
// types in contract-schemas.ts.
const empty = z.object({}).strict();
const clientId = z.string().regex(/^[0-9a-f]{16}$/, 'Not a gateway client id');

/** A client name: what `switchboard-gateway --client NAME` names, so plain and short. */
export const GatewayClientNameSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/, 'Use 1–64 letters, digits, spaces, ".", "_" or "-", starting with a letter or digit');

/** A client profile as entered. */
export const GatewayProfileSchema = z
  .object({
    mode: z.enum(['all', 'progressive']),
    servers: z.array(ServerIdSchema).max(1000).optional(),
    groups: z
      .array(z.string().regex(/^mcp:[a-z0-9][a-z0-9_-]{0,63}$/, 'Group ids look like mcp:<server id>'))
      .max(1000)
      .optional(),
    writes: z.enum(['allow', 'deny', 'ask']).optional(),
    names: z.enum(['local', 'original']).optional(),
  })
  .strict();

const setup = z
  .object({
    id: clientId,
    app: z.enum(['claude', 'cursor', 'vscode']),
    transport: z.enum(['stdio', 'http']),
    file: z.string().min(1).max(4096).optional(),
    token: z.string().min(1).max(200).optional(),
  })
  .strict();

/** Validators for the gateway domain's arguments. */
export const gatewayArgSchemas = {
  'gateway.status': empty,
  'gateway.enable': z.object({ port: z.number().int().min(0).max(65535).optional() }).strict(),
  'gateway.disable': empty,
  'gateway.clients': empty,
  'gateway.addClient': z.object({ name: GatewayClientNameSchema, profile: GatewayProfileSchema }).strict(),
  'gateway.updateClient': z
    .object({ id: clientId, name: GatewayClientNameSchema.optional(), profile: GatewayProfileSchema.optional() })
    .strict(),
  'gateway.removeClient': z.object({ id: clientId }).strict(),
  'gateway.rotateToken': z.object({ id: clientId }).strict(),
  'gateway.decide': z.object({ requestId: z.string().min(1).max(100), allow: z.boolean(), always: z.boolean().optional() }).strict(),
  'gateway.trustTool': z.object({ id: clientId, tool: z.string().min(1).max(256), trusted: z.boolean() }).strict(),
  'gateway.activity': z.object({ limit: z.number().int().min(1).max(500).optional() }).strict(),
  'gateway.setupPreview': setup,
  'gateway.setupInstall': setup,
  'gateway.requestArguments': z.object({ requestId: z.string().min(1).max(100) }).strict(),
} satisfies Record<keyof GatewayInvokeMap, z.ZodType>;

/** Event names of the gateway domain. */
export const gatewayEventKeys = { 'gateway.request': true, 'gateway.activity': true } satisfies Record<keyof GatewayEventMap, true>;
