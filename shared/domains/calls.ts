// Contract types for tool calls, results and history.
import { z } from 'zod';
import type { ErrorCode } from '../errors.js';

/** How a call ended. */
export type CallStatus = 'ok' | 'error' | 'cancelled' | 'timeout';

/** Why a call failed: a code from the closed set (shared/errors.ts) and plain words. */
export interface CallError {
  /** Stable machine-readable code. */
  code: ErrorCode;
  /** Plain-words explanation; never contains secrets. */
  message: string;
}

/** One inline media block of a bounded presentation. */
export interface MediaView {
  /** Image or audio. */
  kind: 'image' | 'audio';
  /** MIME type checked against the bytes. */
  mimeType: string;
  /** Base64 data (within the media budget). */
  data: string;
  /** Decoded size in bytes. */
  bytes: number;
  /** Pixel width (images). */
  width?: number;
  /** Pixel height (images). */
  height?: number;
}

/** The bounded view of a tool result: what crosses the bridge by default. */
export interface Presentation {
  /** The result is a tool-level error. */
  isError: boolean;
  /** Visible text (≤ 32 KiB by default). */
  text: string;
  /** Text was cut at the budget. */
  truncated: boolean;
  /** Inline media (≤ 8 blocks, ≤ 5 MiB decoded by default). */
  media: MediaView[];
  /** Explicit notices for unknown content, unsupported or refused media. */
  notices: string[];
  /** Resource links. */
  links: { uri: string; name?: string; mimeType?: string }[];
  /** Embedded resources (text shortened). */
  resources: { uri: string; mimeType?: string; text?: string }[];
  /** Structured content, pretty-printed and bounded. */
  structured?: string;
  /** The structured content was cut at its budget. */
  structuredTruncated?: boolean;
}

/** Result of tools.call. */
export interface CallOutcome {
  /** Id of the call (given by the caller or generated). */
  callId: string;
  /** How it ended. */
  status: CallStatus;
  /** Bounded presentation. */
  presentation: Presentation;
  /** Wall time in ms. */
  durationMs: number;
  /** Why it failed, for status error/timeout/cancelled (e.g. tool_error, authorization_required, input_unsupported). */
  error?: CallError;
  /** Server id of the call. */
  serverId?: string;
  /** Local tool name. */
  tool?: string;
  /** Bytes of the full result as received (the envelope is fetched with calls.result). */
  resultBytes?: number;
}

/** Live progress of a running call. */
export interface CallProgress {
  /** The call. */
  callId: string;
  /** Progress so far. */
  progress?: number;
  /** Total, when known. */
  total?: number;
  /** Server's message (sanitized). */
  message?: string;
  /** Phase: queued, running, waiting for input, task polling. */
  phase: 'queued' | 'running' | 'input' | 'task';
  /** Task state, for the tasks extension. */
  task?: { id: string; status: string; message?: string };
}

/** Who started a call: the person in the UI, an MCP App inside a result view, or a client of the gateway. */
export type CallOrigin =
  { kind: 'person' } | { kind: 'app'; serverId: string; tool: string } | { kind: 'gateway'; clientId: string; clientName: string };

/** One history row. */
export interface HistoryEntry {
  /** The call id. */
  callId: string;
  /** Server id. */
  serverId: string;
  /** Local tool name. */
  tool: string;
  /** Original MCP name. */
  originalName: string;
  /** Arguments sent. */
  arguments: Record<string, unknown>;
  /** Start time (ms since epoch). */
  startedAt: number;
  /** Wall time in ms. */
  durationMs: number;
  /** How it ended. */
  status: CallStatus;
  /** Bounded presentation. */
  presentation: Presentation;
  /** Name under which the call was saved, if any. */
  savedAs?: string;
  /** Why it failed, when it did. */
  error?: CallError;
  /** Who started the call (absent: the person, in the UI). */
  origin?: CallOrigin;
  /** What the history left out of this entry to stay within its budget (absent: nothing). */
  cut?: HistoryCut;
}

/** A part of a call the history did not keep whole: its size and SHA-256, so a copy can still be recognised. */
export interface HistoryCutPart {
  /** Size of the part as JSON text, in UTF-8 bytes. */
  bytes: number;
  /** SHA-256 of that JSON text, hex. */
  sha256: string;
}

/** What a history entry lost to the history's per-entry budget. */
export interface HistoryCut {
  /** The arguments were replaced by `{}`. */
  arguments?: HistoryCutPart;
  /** The result's media data and structured text were left out of the presentation. */
  presentation?: HistoryCutPart;
}

/** The complete audited envelope of a call. */
export interface AuditedEnvelope {
  /** Server id. */
  serverId: string;
  /** Original MCP tool name. */
  originalName: string;
  /** The call id. */
  callId: string;
  /** The raw result as received (content, structuredContent, _meta, isError), nested at most 64 levels for display. */
  result: unknown;
  /** Set when the result was cut for display (nested deeper than 64 levels); the core keeps the rest. */
  notice?: string;
}

/** What an exported test checks for one call: the exact text shown, and/or top-level structured-content fields. */
export interface TestAssertion {
  /** The call. */
  callId: string;
  /** Assert the result's text exactly. */
  text?: boolean;
  /** Top-level structuredContent fields whose values are asserted. */
  fields?: string[];
}

/** Arguments of calls.exportTest. */
export interface ExportTestArgs {
  /** The calls, one test each, in this order. */
  callIds: string[];
  /** What to check per call (default: the exact text). */
  assertions?: TestAssertion[];
  /** The spec's describe title (default: the saved name, or "Saved calls"). */
  title?: string;
}

/** Arguments of calls.exportCollection. */
export interface ExportCollectionArgs {
  /** The calls, in this order. */
  callIds: string[];
  /** What to check per call beyond how it ended (default: its shown text, when it succeeded). */
  assertions?: TestAssertion[];
  /** The collection's name (default: the saved name, or "Saved calls"). */
  name?: string;
}

/** Tool-call and history methods: name → (argument object) → result. */
export interface CallsInvokeMap {
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
  /** History entries as a collection file (JSON) that `switchboard run` runs. */
  'calls.exportCollection': (args: ExportCollectionArgs) => Promise<{ fileName: string; text: string }>;
}

// Argument validators, one per method above: run before any handler, their shapes checked against the method
// types in contract-schemas.ts.
const callId = z.string().min(1).max(100);

/** Validators for tools.* and calls.* arguments. */
// The calls an export takes and the assertions picked for them (the spec and the collection exports share them).
const exportedCalls = {
  callIds: z.array(callId).min(1).max(200),
  assertions: z
    .array(z.object({ callId, text: z.boolean().optional(), fields: z.array(z.string().min(1).max(200)).max(100).optional() }).strict())
    .max(200)
    .optional(),
};

export const callArgSchemas = {
  'tools.call': z
    .object({ name: z.string().min(1).max(512), arguments: z.record(z.string(), z.unknown()), callId: callId.optional() })
    .strict(),
  'tools.cancel': z.object({ callId }).strict(),
  'calls.history': z
    .object({
      query: z.string().max(1000).optional(),
      offset: z.number().int().min(0).optional(),
      limit: z.number().int().min(1).max(1000).optional(),
      savedOnly: z.boolean().optional(),
    })
    .strict(),
  'calls.result': z.object({ callId }).strict(),
  'calls.save': z.object({ callId, name: z.string().trim().min(1).max(200) }).strict(),
  'calls.clear': z.object({ includeSaved: z.boolean().optional() }).strict(),
  'calls.export': z.object({}).strict(),
  'calls.exportTest': z
    .object({
      ...exportedCalls,
      title: z.string().max(200).optional(),
    })
    .strict(),
  'calls.exportCollection': z
    .object({
      ...exportedCalls,
      name: z.string().max(200).optional(),
    })
    .strict(),
} as const;
