// Argument validators and event names for the protocol domain.
import { z } from 'zod';
import type { ProtocolEventMap, ProtocolInvokeMap } from './protocol.js';

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
