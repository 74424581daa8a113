// Argument validators for the catalog methods.
import { z } from 'zod';

const localName = z.string().min(1).max(512);

/** Validators for catalog.* arguments. */
export const catalogArgSchemas = {
  'catalog.groups': z.object({ includeMembers: z.boolean().optional() }).strict(),
  'catalog.select': z
    .object({ group: z.string().max(200).optional(), tools: z.array(localName).max(2048).optional() })
    .strict()
    .refine((a) => a.group !== undefined || (a.tools !== undefined && a.tools.length > 0), 'Give a group or tool names'),
  'catalog.search': z
    .object({
      query: z.string().max(1000),
      serverIds: z.array(z.string().max(200)).max(1000).optional(),
      annotation: z.enum(['readOnly', 'destructive', 'idempotent', 'openWorld']).optional(),
      offset: z.number().int().min(0).optional(),
      limit: z.number().int().min(1).max(25_000).optional(),
      includeGroups: z.boolean().optional(),
    })
    .strict(),
  'catalog.tool': z.object({ name: localName }).strict(),
  'catalog.refresh': z.object({ id: z.string().max(200).optional() }).strict(),
  'catalog.approveTool': z.object({ name: localName, fingerprint: z.string().min(1).max(200) }).strict(),
} as const;
