// Argument validators for resources, prompts, completion and elicitation.
import { z } from 'zod';

const id = z.string().min(1).max(200);
const uri = z.string().min(1).max(8192);

/** Validators for resources.*, prompts.*, completion.* and elicitation.* arguments. */
export const resourceArgSchemas = {
  'resources.list': z.object({ id, cursor: z.string().max(65536).optional() }).strict(),
  'resources.templates': z.object({ id }).strict(),
  'resources.read': z.union([
    z.object({ id, uri }).strict(),
    z.object({ id, uriTemplate: uri, variables: z.record(z.string(), z.string().max(8192)) }).strict(),
  ]),
  'resources.subscribe': z.object({ id, uri }).strict(),
  'resources.unsubscribe': z.object({ id, uri }).strict(),
  'prompts.list': z.object({ id }).strict(),
  'prompts.get': z.object({ id, name: z.string().min(1).max(512), arguments: z.record(z.string(), z.string()) }).strict(),
  'completion.complete': z
    .object({
      id,
      ref: z.discriminatedUnion('type', [
        z.object({ type: z.literal('ref/prompt'), name: z.string().min(1).max(512) }).strict(),
        z.object({ type: z.literal('ref/resource'), uri }).strict(),
      ]),
      argument: z.object({ name: z.string().min(1).max(512), value: z.string().max(8192) }).strict(),
      context: z.record(z.string(), z.string()).optional(),
    })
    .strict(),
  'elicitation.pending': z.object({}).strict(),
  'elicitation.respond': z
    .object({
      requestId: z.string().min(1).max(100),
      action: z.enum(['accept', 'decline', 'cancel']),
      content: z.record(z.string(), z.unknown()).optional(),
    })
    .strict(),
} as const;
