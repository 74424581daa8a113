// Catalog checks for `switchboard lint`: what makes a tool fail or degrade in the major clients' validators. Each rule
// looks at one tool's published definition; findings carry a severity so CI can fail on errors only.

/** One finding. */
export interface LintFinding {
  severity: 'error' | 'warning';
  /** Stable rule id. */
  rule: string;
  /** The tool's local name. */
  tool: string;
  message: string;
}

/** What a rule sees of a tool. */
export interface LintTool {
  name: string;
  originalName: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  /** Where the tool was seen returning structuredContent: a recorded call, or a --probe call in this run. */
  structuredSeen?: 'history' | 'probe';
}

/** Names clients accept everywhere (OpenAI and Anthropic: letters, digits, _ and -, at most 64). */
const NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** Descriptions longer than this are cut or refused by some clients. */
export const DESCRIPTION_BUDGET = 1024;
const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
/** Keywords at the root of an input schema that several clients' validators refuse. */
const ROOT_REFUSED = ['oneOf', 'anyOf', 'allOf', 'not', 'enum', 'if', 'then', 'else'];

function walk(schema: unknown, path: string, visit: (node: Record<string, unknown>, path: string) => void): void {
  if (typeof schema !== 'object' || schema === null) return;
  if (Array.isArray(schema)) {
    schema.forEach((s, i) => walk(s, `${path}[${i}]`, visit));
    return;
  }
  const node = schema as Record<string, unknown>;
  visit(node, path);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' || key === '$defs' || key === 'definitions' || key === 'patternProperties') {
      if (typeof value === 'object' && value !== null)
        for (const [k, v] of Object.entries(value as Record<string, unknown>)) walk(v, `${path}.${key}.${k}`, visit);
    } else if (typeof value === 'object' && value !== null && key !== 'enum' && key !== 'const' && key !== 'default' && key !== 'examples')
      walk(value, `${path}.${key}`, visit);
  }
}

function schemaFindings(tool: string, which: 'inputSchema' | 'outputSchema', schema: Record<string, unknown>): LintFinding[] {
  const out: LintFinding[] = [];
  if (schema['type'] !== 'object')
    out.push({ severity: 'error', rule: 'schema-root-object', tool, message: `${which} must have "type": "object" at its root` });
  if (which === 'inputSchema')
    for (const k of ROOT_REFUSED)
      if (k in schema)
        out.push({
          severity: 'warning',
          rule: 'schema-root-combinator',
          tool,
          message: `${which} uses "${k}" at its root, which several clients refuse`,
        });
  walk(schema, '$', (node, path) => {
    const types = node['type'];
    for (const t of Array.isArray(types) ? types : types === undefined ? [] : [types])
      if (typeof t !== 'string' || !JSON_TYPES.has(t))
        out.push({
          severity: 'error',
          rule: 'schema-invalid-type',
          tool,
          message: `${which} ${path}: "type" ${JSON.stringify(t)} is not a JSON Schema type`,
        });
    const req = node['required'];
    if (req !== undefined && (!Array.isArray(req) || !req.every((r) => typeof r === 'string')))
      out.push({
        severity: 'error',
        rule: 'schema-invalid-required',
        tool,
        message: `${which} ${path}: "required" must be an array of names`,
      });
    if (typeof node['$ref'] === 'string' && !node['$ref'].startsWith('#'))
      out.push({
        severity: 'warning',
        rule: 'schema-remote-ref',
        tool,
        message: `${which} ${path}: "$ref" ${node['$ref']} points outside the schema; clients do not fetch it`,
      });
  });
  return out;
}

/** Every finding for one tool, and duplicate names across the set. */
export function lintTools(tools: readonly LintTool[]): LintFinding[] {
  const out: LintFinding[] = [];
  const seen = new Map<string, number>();
  for (const t of tools) {
    seen.set(t.originalName, (seen.get(t.originalName) ?? 0) + 1);
    if (!NAME.test(t.originalName))
      out.push({
        severity: 'error',
        rule: 'name-portable',
        tool: t.name,
        message: `the name "${t.originalName}" is not 1–64 letters, digits, _ or -`,
      });
    if (t.description.trim() === '')
      out.push({ severity: 'warning', rule: 'description-missing', tool: t.name, message: 'the tool has no description' });
    if (t.description.length > DESCRIPTION_BUDGET)
      out.push({
        severity: 'warning',
        rule: 'description-budget',
        tool: t.name,
        message: `the description is ${t.description.length} characters (budget ${DESCRIPTION_BUDGET})`,
      });
    out.push(...schemaFindings(t.name, 'inputSchema', t.inputSchema));
    if (t.outputSchema) out.push(...schemaFindings(t.name, 'outputSchema', t.outputSchema));
    else if (t.structuredSeen)
      out.push({
        severity: 'warning',
        rule: 'output-schema-missing',
        tool: t.name,
        message: `the tool returns structuredContent (seen in ${t.structuredSeen === 'history' ? 'a recorded call' : 'a --probe call'}) but declares no outputSchema, so clients cannot validate or type it`,
      });
  }
  for (const [name, count] of seen)
    if (count > 1) out.push({ severity: 'error', rule: 'name-duplicate', tool: name, message: `${count} tools share the name "${name}"` });
  return out;
}
