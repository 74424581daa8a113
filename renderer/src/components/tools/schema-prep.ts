// Prepares a tool's inputSchema for the form library: only local references survive (a network `$ref` is never
// followed), meta keywords that would make the validator look up remote meta-schemas are dropped, and
// `nullable` (OpenAPI style) becomes a JSON Schema type union.

/** A JSON Schema as a plain object. */
export type JsonSchema = Record<string, unknown>;

/** The prepared schema and what was changed on the way. */
export interface PreparedSchema {
  schema: JsonSchema;
  notices: string[];
  /** False when the schema cannot be a form at all (not an object schema). */
  formable: boolean;
}

const MAX_DEPTH = 64;

function isObject(v: unknown): v is JsonSchema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function walk(node: unknown, depth: number, notices: Set<string>): unknown {
  if (depth > MAX_DEPTH) {
    notices.add('The schema is nested too deeply; the deepest parts accept any value.');
    return {};
  }
  if (Array.isArray(node)) return node.map((n) => walk(n, depth + 1, notices));
  if (!isObject(node)) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref') {
      if (typeof value === 'string' && value.startsWith('#')) out.$ref = value;
      else notices.add(`A reference outside this schema (${String(value).slice(0, 120)}) was not followed; that part accepts any value.`);
      continue;
    }
    if (
      key === '$schema' ||
      key === '$id' ||
      (key === 'id' && typeof value === 'string' && depth === 0) ||
      key === '$dynamicRef' ||
      key === '$recursiveRef'
    )
      continue;
    out[key] = walk(value, depth + 1, notices);
  }
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
  }
  return out;
}

/** Strips remote references and meta keywords; reports what it did. */
export function prepareSchema(input: unknown): PreparedSchema {
  const notices = new Set<string>();
  if (!isObject(input)) return { schema: { type: 'object' }, notices: ['The tool has no usable input schema.'], formable: false };
  const schema = walk(input, 0, notices) as JsonSchema;
  // Legacy `definitions` and `$defs` both resolve as local JSON pointers.
  const type = schema.type;
  const formable = type === undefined || type === 'object' || (Array.isArray(type) && type.includes('object'));
  if (schema.type === undefined && schema.properties !== undefined) schema.type = 'object';
  return { schema, notices: [...notices], formable };
}
