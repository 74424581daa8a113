// Checks the shape of an elicitation request taken from an MRTR round (untrusted server data)
// before it reaches the broker; anything else is declined.
import { z } from 'zod';
import type { ElicitParams } from './elicitation-broker.js';

const FormParams = z
  .object({
    mode: z.literal('form').optional(),
    message: z.string(),
    requestedSchema: z
      .object({ type: z.literal('object'), properties: z.record(z.string(), z.record(z.string(), z.unknown())) })
      .passthrough(),
  })
  .passthrough();
const UrlParams = z.object({ mode: z.literal('url'), message: z.string(), url: z.string(), elicitationId: z.string() }).passthrough();

/** The request as ElicitParams, or undefined when it does not have the shape of one. */
export function parseElicitParams(raw: unknown): ElicitParams | undefined {
  const parsed = z.union([UrlParams, FormParams]).safeParse(raw);
  return parsed.success ? (parsed.data as ElicitParams) : undefined;
}
