// A collection: saved calls with assertions, run as a test suite by `switchboard run` and by the History view's
// "Run collection". JSON or YAML, checked against one zod schema (docs/collection.schema.json is generated from it).
// Shared by the command line and the renderer, so both read a file the same way.
import { load } from 'js-yaml';
import { z } from 'zod';

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

/** A collection's text read, or why it cannot be: not parseable, or not the format (each problem with its path). */
export type ParsedCollection = { ok: true; name: string | undefined; calls: CollectionCall[] } | { ok: false; message: string };

/** Parses a collection's text: YAML when `yaml`, JSON otherwise. */
export function parseCollection(text: string, yaml: boolean): ParsedCollection {
  let raw: unknown;
  try {
    raw = yaml ? load(text) : JSON.parse(text);
  } catch (err) {
    return { ok: false, message: `cannot be parsed: ${(err as Error).message}` };
  }
  const parsed = CollectionSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`).join('; ');
    return { ok: false, message: `is not valid: ${problems}` };
  }
  return { ok: true, name: parsed.data.name, calls: parsed.data.calls };
}

/** Whether a file name is read as YAML (.yaml / .yml). */
export function isYamlName(name: string): boolean {
  return /\.ya?ml$/i.test(name);
}
