// Contract types for the protocol view and the client features a person answers by hand (sampling, roots),
// plus the per-server consent to be asked questions (elicitation).
import { z } from 'zod';

/** Which way a JSON-RPC message went: out = Switchboard → server, in = server → Switchboard. */
export type TrafficDirection = 'out' | 'in';

/** The JSON-RPC kind of a message. */
export type TrafficKind = 'request' | 'notification' | 'response' | 'error';

/** One JSON-RPC message as the protocol view shows it: redacted, bounded display data. */
export interface TrafficEntry {
  /** Sequence number, increasing per server. */
  seq: number;
  /** Server id. */
  serverId: string;
  /** When it was sent or received (ms since epoch). */
  time: number;
  /** Which way it went. */
  direction: TrafficDirection;
  /** Request, notification, response or error response. */
  kind: TrafficKind;
  /** The method (for responses: the method of the request they answer, when known). */
  method?: string;
  /** The JSON-RPC id as text (requests and responses). */
  id?: string;
  /** Size of the whole message as JSON, in bytes. */
  bytes: number;
  /** For a response: ms since its request. */
  durationMs?: number;
  /** The message as pretty-printed JSON, secrets redacted, cut at the payload budget. */
  payload: string;
  /** The payload text was cut. */
  truncated: boolean;
}

/** A filter over traffic entries (all parts optional, combined with AND). */
export interface TrafficFilter {
  /** Only this server. */
  serverId?: string;
  /** Only this direction. */
  direction?: TrafficDirection;
  /** Method contains this text (case-insensitive). */
  method?: string;
  /** Method, id or payload contains this text (case-insensitive). */
  text?: string;
}

/** The per-server consent to be asked questions (elicitation): absent means ask on the first request. */
export type ElicitationConsent = 'ask' | 'allow' | 'deny';

/** A folder shared with a server, as `roots/list` sends it. */
export interface RootView {
  /** `file://` URI of the folder. */
  uri: string;
  /** Display name. */
  name?: string;
  /** The local path the URI stands for. */
  path: string;
  /** Whether the folder exists on this machine right now. */
  exists: boolean;
}

/** A folder the person enters or picks: a local absolute path or a `file://` URI, with an optional name. */
export interface RootInput {
  /** Absolute path or `file://` URI. */
  path: string;
  /** Display name. */
  name?: string;
}

/** What a server may ask of Switchboard, per server: the choices shown in its "Client features" panel. */
export interface ClientFeaturesView {
  /** Server id. */
  serverId: string;
  /** Elicitation is advertised (config). */
  elicitation: boolean;
  /** The person's consent to questions from this server. */
  elicitationConsent: ElicitationConsent;
  /** Sampling requests are advertised and answered by hand (config). */
  sampling: boolean;
  /** Roots are advertised (config). */
  roots: boolean;
  /** Tasks (SEP-2663 extension on 2026-07-28, the tasks form on 2025-11-25) are used (config). */
  tasks: boolean;
  /** The folders shared with this server. */
  rootList: RootView[];
  /** The protocol revision of the live session, when connected (sampling and roots work on 2025-11-25 sessions). */
  protocolVersion?: string;
}

/** One content block of a sampling message, reduced to display text. */
export interface SamplingContentView {
  /** Block type (text, image, audio, tool_use, tool_result, or another the server sent). */
  type: string;
  /** Text of the block, or a description of a non-text block. */
  text: string;
}

/** One message of a sampling request. */
export interface SamplingMessageView {
  /** user or assistant. */
  role: string;
  /** Its content blocks. */
  content: SamplingContentView[];
}

/** A server's `sampling/createMessage` request waiting for the person's reply. */
export interface SamplingRequestView {
  /** Request id (ours). */
  requestId: string;
  /** Requesting server id. */
  serverId: string;
  /** Requesting server's display name. */
  serverName: string;
  /** Set when one of the server's MCP Apps asked (the tool whose app it is), not the server itself. */
  fromApp?: { tool: string };
  /** The conversation the server wants continued (bounded). */
  messages: SamplingMessageView[];
  /** Messages left out beyond the display budget. */
  omittedMessages: number;
  /** The server's system prompt. */
  systemPrompt?: string;
  /** Maximum tokens the server asked for. */
  maxTokens: number;
  /** Temperature the server asked for. */
  temperature?: number;
  /** Stop sequences the server asked for. */
  stopSequences?: string[];
  /** Context the server asked to include (none, thisServer, allServers). */
  includeContext?: string;
  /** Model preferences: name hints and priorities (0–1). */
  modelPreferences?: { hints: string[]; costPriority?: number; speedPriority?: number; intelligencePriority?: number };
  /** Tools the server offers the model, with their descriptions. */
  tools: { name: string; description?: string }[];
  /** How the server wants tools chosen (auto, required, none). */
  toolChoice?: string;
  /** When the request times out (ms since epoch). */
  expiresAt: number;
}

/** The person's reply to a sampling request. */
export interface SamplingReply {
  /** Reply text. */
  text: string;
  /** Model name reported to the server (defaults to "switchboard-by-hand"). */
  model?: string;
  /** Stop reason reported to the server (defaults to endTurn). */
  stopReason?: 'endTurn' | 'stopSequence' | 'maxTokens';
}

/** One task in a server's inventory (2025-11-25 tasks/list), as display data. */
export interface ServerTaskView {
  /** The server's task id. */
  taskId: string;
  /** working, input_required, completed, failed or cancelled. */
  status: string;
  /** The server's status message. */
  statusMessage?: string;
  /** When the task was created (ISO time, as the server said). */
  createdAt?: string;
  /** When it last changed (ISO time, as the server said). */
  lastUpdatedAt?: string;
}

/** Contract methods of the protocol domain: name → (argument object) → result. */
export interface ProtocolInvokeMap {
  /** The recorded JSON-RPC traffic (one server or all), oldest first, optionally filtered. */
  'protocol.traffic': (args: TrafficFilter & { limit?: number }) => Promise<{ entries: TrafficEntry[]; total: number }>;
  /** Forgets the recorded traffic of one server or of all. */
  'protocol.clear': (args: { serverId?: string }) => Promise<void>;
  /** A server's client features (elicitation consent, sampling, roots, tasks, shared folders). */
  'protocol.features': (args: { id: string }) => Promise<ClientFeaturesView>;
  /** Changes a server's client feature switches (a live session reconnects to advertise the change). */
  'protocol.setFeatures': (args: {
    id: string;
    elicitation?: boolean;
    sampling?: boolean;
    roots?: boolean;
    tasks?: boolean;
  }) => Promise<ClientFeaturesView>;
  /** Records whether the person lets a server ask questions; "deny" declines its waiting and future requests. */
  'protocol.setConsent': (args: { id: string; consent: ElicitationConsent }) => Promise<ClientFeaturesView>;
  /** Replaces the folders shared with a server; a connected server is told the list changed. */
  'roots.set': (args: { id: string; roots: RootInput[] }) => Promise<ClientFeaturesView>;
  /** One page of the tasks a 2025-11-25 server keeps (tasks/list); `supported: false` when it keeps no list. */
  'protocol.tasks': (args: {
    id: string;
    cursor?: string;
  }) => Promise<{ supported: boolean; tasks: ServerTaskView[]; nextCursor?: string }>;
  /** Sampling requests waiting for the person (for a renderer that attaches late). */
  'sampling.pending': (args: Record<string, never>) => Promise<SamplingRequestView[]>;
  /** Answers a sampling request with the person's reply, or declines it. */
  'sampling.respond': (args: { requestId: string; action: 'accept' | 'decline'; reply?: SamplingReply }) => Promise<void>;
}

/** Events the core pushes for the protocol domain: name → payload. */
export interface ProtocolEventMap {
  /** New JSON-RPC traffic (batched). */
  'protocol.traffic': { entries: TrafficEntry[] };
  /** Recorded traffic was cleared (one server or all). */
  'protocol.cleared': { serverId?: string };
  /** A server's client features changed. */
  'protocol.featuresChanged': ClientFeaturesView;
  /** A server asks the person to write a model reply. */
  'sampling.requested': { request: SamplingRequestView; queueLength: number };
  /** A sampling request is no longer waiting (answered, declined, timed out, withdrawn). */
  'sampling.settled': { requestId: string; reason: string; queueLength: number };
}

// Argument validators, one per method above: run before any handler, their shapes checked against the method
// types in contract-schemas.ts.
const id = z.string().min(1).max(200);
const consent = z.enum(['ask', 'allow', 'deny']);

/** Most folders one server may be given. */
export const MAX_ROOTS = 64;

/** Validators for the protocol domain's arguments. */
export const protocolArgSchemas = {
  'protocol.traffic': z
    .object({
      serverId: id.optional(),
      direction: z.enum(['out', 'in']).optional(),
      method: z.string().max(200).optional(),
      text: z.string().max(1000).optional(),
      limit: z.number().int().min(1).max(100_000).optional(),
    })
    .strict(),
  'protocol.clear': z.object({ serverId: id.optional() }).strict(),
  'protocol.features': z.object({ id }).strict(),
  'protocol.setFeatures': z
    .object({
      id,
      elicitation: z.boolean().optional(),
      sampling: z.boolean().optional(),
      roots: z.boolean().optional(),
      tasks: z.boolean().optional(),
    })
    .strict(),
  'protocol.setConsent': z.object({ id, consent }).strict(),
  'roots.set': z
    .object({
      id,
      roots: z
        .array(
          z.object({ path: z.string().trim().min(1, 'Enter a folder').max(4096), name: z.string().trim().max(200).optional() }).strict(),
        )
        .max(MAX_ROOTS, `At most ${MAX_ROOTS} folders can be shared with one server`),
    })
    .strict(),
  'protocol.tasks': z.object({ id, cursor: z.string().max(4096).optional() }).strict(),
  'sampling.pending': z.object({}).strict(),
  'sampling.respond': z
    .object({
      requestId: z.string().min(1).max(100),
      action: z.enum(['accept', 'decline']),
      reply: z
        .object({
          text: z.string().max(1024 * 1024),
          model: z.string().trim().min(1).max(200).optional(),
          stopReason: z.enum(['endTurn', 'stopSequence', 'maxTokens']).optional(),
        })
        .strict()
        .optional(),
    })
    .strict(),
} satisfies Record<keyof ProtocolInvokeMap, z.ZodType>;

/** Event names of the protocol domain. */
export const protocolEventKeys = {
  'protocol.traffic': true,
  'protocol.cleared': true,
  'protocol.featuresChanged': true,
  'sampling.requested': true,
  'sampling.settled': true,
} satisfies Record<keyof ProtocolEventMap, true>;
