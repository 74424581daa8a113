// The server methods of the contract (definitions, import and export, connections, the doctor's walk) and their
// argument validators. The views they return are declared in contract.ts.
import { z } from 'zod';
import { ServerConfigInputSchema, ServerIdSchema, type ServerConfigInput } from '../config.js';
import type { ImportFormat, ImportPreview, ImportResult, LogEntry, ServerDetail, ServerStatus, ServerSummary } from '../contract.js';
import type { DoctorWalk } from './doctor.js';

/** Server definition, connection and doctor methods: name → (argument object) → result. */
export interface ServersInvokeMap {
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
}

const empty = z.object({}).strict();
const byId = z.object({ id: z.string().min(1).max(200) }).strict();
const format = z.enum(['claude', 'vscode', 'cursor']);
const MAX_IMPORT_TEXT = 4 * 1024 * 1024;
/** Longest bearer token the Add dialog may send (the core checks its characters). */
const MAX_BEARER_CHARS = 16 * 1024;

/** Validators for servers.* arguments: run before any handler, their shapes checked in contract-schemas.ts. */
export const serversArgSchemas = {
  'servers.list': empty,
  'servers.get': byId,
  'servers.add': z.object({ config: ServerConfigInputSchema, bearerToken: z.string().min(1).max(MAX_BEARER_CHARS).optional() }).strict(),
  'servers.update': z.object({ id: ServerIdSchema, config: ServerConfigInputSchema }).strict(),
  'servers.remove': z.object({ id: z.string().min(1).max(200), deleteCredentials: z.boolean().optional() }).strict(),
  'servers.importPreview': z.object({ text: z.string().max(MAX_IMPORT_TEXT), format: format.optional() }).strict(),
  'servers.import': z
    .object({
      text: z.string().max(MAX_IMPORT_TEXT),
      format: format.optional(),
      keys: z.array(z.string()).optional(),
      secrets: z.record(z.string(), z.record(z.string(), z.string())).optional(),
    })
    .strict(),
  'servers.export': z.object({ format, ids: z.array(z.string()).optional() }).strict(),
  'servers.addDemo': empty,
  'servers.connect': byId,
  'servers.disconnect': byId,
  'servers.restart': byId,
  'servers.approve': z.object({ id: z.string().min(1), fingerprint: z.string().min(1).max(200) }).strict(),
  'servers.status': byId,
  'servers.logs': byId,
  // The definition is checked by the doctor itself, so a refused URL becomes the walk's failing first step.
  'servers.test': z
    .object({
      config: z
        .record(z.string(), z.unknown())
        .refine((c) => JSON.stringify(c).length <= 256 * 1024, 'The definition is too large')
        .optional(),
      id: z.string().min(1).max(200).optional(),
      approvedLaunch: z.string().min(1).max(200).optional(),
    })
    .strict()
    .refine((a) => a.config !== undefined || a.id !== undefined, 'Give a definition or a server id'),
} satisfies Record<keyof ServersInvokeMap, z.ZodType>;
