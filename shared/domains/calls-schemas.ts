// Argument validators for tool calls and history.
import { z } from 'zod';

const callId = z.string().min(1).max(100);

/** Validators for tools.* and calls.* arguments. */
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
      callIds: z.array(callId).min(1).max(200),
      assertions: z
        .array(z.object({ callId, text: z.boolean().optional(), fields: z.array(z.string().min(1).max(200)).max(100).optional() }).strict())
        .max(200)
        .optional(),
      title: z.string().max(200).optional(),
    })
    .strict(),
} as const;
