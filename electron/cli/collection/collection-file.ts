// A collection: saved calls with assertions, run as a test suite by `switchboard run`. JSON or YAML, checked against
// one zod schema; docs/collection.schema.json is generated from the same schema (a test keeps them equal).
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { load } from 'js-yaml';
import { z } from 'zod';
import { CliError } from '../cli-error.js';

const Expect = z
  .object({
    status: z.enum(['ok', 'error', 'timeout', 'cancelled']).optional().describe('How the call must end (default: ok).'),
    noIsError: z.boolean().optional().describe('The result must not be a tool error (isError).'),
    textContains: z
      .union([z.string(), z.array(z.string())])
      .optional()
      .describe('Text the result must contain (each of them).'),
    textMatches: z.string().optional().describe('A regular expression (JavaScript syntax) the result text must match.'),
    jsonPath: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('Paths into structuredContent ($.a.b[0]) and the value each must equal (deep equality).'),
    matchesOutputSchema: z.boolean().optional().describe("structuredContent must be valid against the tool's outputSchema."),
    maxDurationMs: z.number().positive().optional().describe('The call must take less than this many milliseconds.'),
  })
  .strict();

const Call = z
  .object({
    name: z.string().min(1).optional().describe('The test name (default: the tool name).'),
    tool: z.string().min(1).describe('Local name (mcp__server__tool) or the tool name on its server.'),
    server: z.string().min(1).optional().describe('The server id, when the tool name alone is ambiguous.'),
    args: z.record(z.string(), z.unknown()).default({}).describe('The tool arguments.'),
    timeoutS: z.number().positive().optional().describe('Cancel the call after this many seconds.'),
    expect: Expect.default({}),
  })
  .strict();

/** The collection file's schema. */
export const CollectionSchema = z
  .object({
    name: z.string().min(1).optional().describe('The suite name (default: the file name).'),
    calls: z.array(Call).min(1).describe('The calls, run in order.'),
  })
  .strict();

/** One call with its assertions. */
export type CollectionCall = z.infer<typeof CollectionSchema>['calls'][number];
/** What a call is expected to do. */
export type Expectations = CollectionCall['expect'];
/** A loaded collection. */
export interface Collection {
  name: string;
  file: string;
  calls: CollectionCall[];
}

/** The JSON Schema of the file format (published as docs/collection.schema.json). */
export function collectionJsonSchema(): Record<string, unknown> {
  return {
    $id: 'https://switchboard.dev/schemas/collection.schema.json',
    title: 'Switchboard collection',
    ...z.toJSONSchema(CollectionSchema, { io: 'input' }),
  };
}

/** Reads and checks one collection file (.yaml/.yml as YAML, anything else as JSON). */
export function loadCollection(file: string): Collection {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw CliError.usage(`Cannot read the collection ${file}: ${(err as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = /^\.ya?ml$/i.test(extname(file)) ? load(text, { filename: file }) : JSON.parse(text);
  } catch (err) {
    throw CliError.usage(`The collection ${file} cannot be parsed: ${(err as Error).message}`);
  }
  const parsed = CollectionSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`).join('; ');
    throw CliError.usage(`The collection ${file} is not valid: ${problems}`);
  }
  return { name: parsed.data.name ?? file, file, calls: parsed.data.calls };
}
