// Argument validators and event names for the gateway domain.
import { z } from 'zod';
import { ServerIdSchema } from '../config.js';
import type { GatewayEventMap, GatewayInvokeMap } from './gateway.js';

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
} satisfies Record<keyof GatewayInvokeMap, z.ZodType>;

/** Event names of the gateway domain. */
export const gatewayEventKeys = { 'gateway.request': true, 'gateway.activity': true } satisfies Record<keyof GatewayEventMap, true>;
