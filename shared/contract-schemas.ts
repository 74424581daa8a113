// Runtime side of the contract: one argument validator per InvokeMap key and the list of
// event names. The `satisfies` clauses make a key missing here, or an extra one, a compile error, and a validator
// whose output is not its method's argument type a compile error too.
import { z } from 'zod';
import { ServerConfigInputSchema, ServerIdSchema } from './config.js';
import type { EventKey, InvokeArgs, InvokeKey } from './contract.js';
import { authArgSchemas } from './domains/auth-schemas.js';
import { callArgSchemas } from './domains/calls-schemas.js';
import { catalogArgSchemas } from './domains/catalog-schemas.js';
import { resourceArgSchemas } from './domains/resources-schemas.js';
import { appsArgSchemas, appsEventKeys } from './domains/apps-schemas.js';
import { eventsArgSchemas, eventsEventKeys } from './domains/events-schemas.js';
import { gatewayArgSchemas, gatewayEventKeys } from './domains/gateway-schemas.js';
import { protocolArgSchemas, protocolEventKeys } from './domains/protocol-schemas.js';
import { registryArgSchemas, registryEventKeys } from './domains/registry-schemas.js';

const empty = z.object({}).strict();
const byId = z.object({ id: z.string().min(1).max(200) }).strict();
const format = z.enum(['claude', 'vscode', 'cursor']);
const MAX_IMPORT_TEXT = 4 * 1024 * 1024;
/** Longest bearer token the Add dialog may send (the core checks its characters). */
const MAX_BEARER_CHARS = 16 * 1024;

/**
 * What each method's validator must produce: its argument type, with one intended exception. `servers.test` takes an
 * unchecked definition on purpose (the doctor checks it itself, so a refused URL becomes the walk's failing first
 * step rather than an invalid_request), so its `config` is any record here; the doctor validates it before use.
 */
export type ValidatedArgs<K extends InvokeKey> = K extends 'servers.test'
  ? Omit<InvokeArgs<K>, 'config'> & { config?: Record<string, unknown> }
  : InvokeArgs<K>;

/** A validator per method whose parsed output has that method's argument shape (input is untrusted, so unknown). */
export type ArgSchemas = { [K in InvokeKey]: z.ZodType<ValidatedArgs<K>, unknown> };

/** Argument validators, one per contract method; run before any handler. */
export const invokeArgSchemas = {
  'app.info': empty,
  'app.dismissNotice': byId,
  'app.listening': empty,
  'app.openLink': z.object({ url: z.string().min(1).max(8192) }).strict(),
  'app.leftovers': empty,
  // Positive group ids only: 0 or a negative number would signal the host's own group or every process.
  'app.endLeftovers': z
    .object({
      pgids: z
        .array(
          z
            .number()
            .int()
            .min(2)
            .max(2 ** 31 - 1),
        )
        .min(1)
        .max(1000),
    })
    .strict(),
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
  ...catalogArgSchemas,
  ...callArgSchemas,
  ...authArgSchemas,
  ...resourceArgSchemas,
  ...eventsArgSchemas,
  ...gatewayArgSchemas,
  ...appsArgSchemas,
  ...registryArgSchemas,
  ...protocolArgSchemas,
} satisfies ArgSchemas;

/** Every contract method name, in declaration order. */
export const INVOKE_KEYS = Object.keys(invokeArgSchemas) as InvokeKey[];

const eventRecord = {
  'servers.changed': true,
  'servers.status': true,
  'servers.log': true,
  'app.notices': true,
  'catalog.changed': true,
  'call.progress': true,
  'call.finished': true,
  'auth.changed': true,
  'resources.updated': true,
  'resources.listChanged': true,
  'prompts.listChanged': true,
  'elicitation.requested': true,
  'elicitation.cancelled': true,
  ...eventsEventKeys,
  ...gatewayEventKeys,
  ...appsEventKeys,
  ...registryEventKeys,
  ...protocolEventKeys,
} satisfies Record<EventKey, true>;

/** Every contract event name. */
export const EVENT_KEYS = Object.keys(eventRecord) as EventKey[];

/** True when a string is a contract method name. */
export function isInvokeKey(name: string): name is InvokeKey {
  return Object.prototype.hasOwnProperty.call(invokeArgSchemas, name);
}
