// The elicitation form model: turns a requested schema (the MCP restricted JSON Schema subset) into fields,
// applies SEP-1034 defaults, and validates answers. Shared so the dialog and the core check the same rules.

/** One option of an enum field (SEP-1330: untitled options use the value as label). */
export interface EnumOption {
  /** Value sent to the server. */
  value: string;
  /** Label shown to the user. */
  label: string;
}

interface FieldBase {
  /** Property name. */
  name: string;
  /** Label (title, else the name). */
  label: string;
  /** Description, when given. */
  description?: string;
  /** Whether the schema lists it as required. */
  required: boolean;
}

/** A string field. */
export interface StringField extends FieldBase {
  kind: 'string';
  format?: 'email' | 'uri' | 'date' | 'date-time';
  minLength?: number;
  maxLength?: number;
  default?: string;
}

/** A number or integer field. */
export interface NumberField extends FieldBase {
  kind: 'number';
  integer: boolean;
  minimum?: number;
  maximum?: number;
  default?: number;
}

/** A boolean field. */
export interface BooleanField extends FieldBase {
  kind: 'boolean';
  default?: boolean;
}

/** A single-select enum (untitled `enum`, titled `oneOf`, or legacy `enumNames`). */
export interface SingleEnumField extends FieldBase {
  kind: 'enum';
  options: EnumOption[];
  default?: string;
}

/** A multi-select enum (`type: array` with untitled `items.enum` or titled `items.anyOf`). */
export interface MultiEnumField extends FieldBase {
  kind: 'multiEnum';
  options: EnumOption[];
  minItems?: number;
  maxItems?: number;
  default?: string[];
}

/** One form field. */
export type ElicitField = StringField | NumberField | BooleanField | SingleEnumField | MultiEnumField;

/** A value the form may send. */
export type ElicitValue = string | number | boolean | string[];

/** The parsed form. */
export interface ElicitForm {
  fields: ElicitField[];
  /** Properties the dialog cannot show (the server is told nothing about them; they are never sent). */
  unsupported: string[];
}

const FORMATS = new Set(['email', 'uri', 'date', 'date-time']);
const MAX_FIELDS = 100;

function obj(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}
function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}
function strings(v: unknown): string[] | undefined {
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;
}
function titled(v: unknown): EnumOption[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out: EnumOption[] = [];
  for (const item of v) {
    const o = obj(item);
    const value = str(o?.['const']);
    if (value === undefined) return undefined;
    out.push({ value, label: str(o?.['title']) ?? value });
  }
  return out;
}

/** Parses a requested schema into form fields; anything outside the restricted subset is listed as unsupported. */
export function parseElicitationSchema(schema: unknown): ElicitForm {
  const root = obj(schema);
  const props = obj(root?.['properties']) ?? {};
  const required = new Set(strings(root?.['required']) ?? []);
  const fields: ElicitField[] = [];
  const unsupported: string[] = [];
  for (const [name, raw] of Object.entries(props).slice(0, MAX_FIELDS)) {
    const p = obj(raw);
    if (!p) {
      unsupported.push(name);
      continue;
    }
    const base: FieldBase = { name, label: str(p['title']) ?? name, required: required.has(name) };
    const description = str(p['description']);
    if (description !== undefined) base.description = description;
    const type = p['type'];
    if (type === 'string') {
      const enumValues = strings(p['enum']);
      const oneOf = titled(p['oneOf']) ?? titled(p['anyOf']);
      if (enumValues || oneOf) {
        const names = strings(p['enumNames']);
        const options = oneOf ?? (enumValues ?? []).map((value, i) => ({ value, label: names?.[i] ?? value }));
        const field: SingleEnumField = { ...base, kind: 'enum', options };
        const def = str(p['default']);
        if (def !== undefined && options.some((o) => o.value === def)) field.default = def;
        fields.push(field);
        continue;
      }
      const field: StringField = { ...base, kind: 'string' };
      const format = str(p['format']);
      if (format !== undefined && FORMATS.has(format)) field.format = format as StringField['format'] & string;
      const minLength = num(p['minLength']);
      const maxLength = num(p['maxLength']);
      if (minLength !== undefined) field.minLength = minLength;
      if (maxLength !== undefined) field.maxLength = maxLength;
      const def = str(p['default']);
      if (def !== undefined) field.default = def;
      fields.push(field);
    } else if (type === 'number' || type === 'integer') {
      const field: NumberField = { ...base, kind: 'number', integer: type === 'integer' };
      const minimum = num(p['minimum']);
      const maximum = num(p['maximum']);
      if (minimum !== undefined) field.minimum = minimum;
      if (maximum !== undefined) field.maximum = maximum;
      const def = num(p['default']);
      if (def !== undefined) field.default = def;
      fields.push(field);
    } else if (type === 'boolean') {
      const field: BooleanField = { ...base, kind: 'boolean' };
      if (typeof p['default'] === 'boolean') field.default = p['default'];
      fields.push(field);
    } else if (type === 'array') {
      const items = obj(p['items']);
      const options =
        titled(items?.['anyOf']) ?? titled(items?.['oneOf']) ?? strings(items?.['enum'])?.map((value) => ({ value, label: value }));
      if (!options) {
        unsupported.push(name);
        continue;
      }
      const field: MultiEnumField = { ...base, kind: 'multiEnum', options };
      const minItems = num(p['minItems']);
      const maxItems = num(p['maxItems']);
      if (minItems !== undefined) field.minItems = minItems;
      if (maxItems !== undefined) field.maxItems = maxItems;
      const def = strings(p['default']);
      if (def !== undefined) field.default = def.filter((d) => options.some((o) => o.value === d));
      fields.push(field);
    } else {
      unsupported.push(name);
    }
  }
  return { fields, unsupported };
}

/** The form's starting values: every SEP-1034 default (string, number, integer, boolean, enum) pre-filled. */
export function initialValues(form: ElicitForm): Record<string, ElicitValue> {
  const values: Record<string, ElicitValue> = {};
  for (const f of form.fields) {
    if (f.default !== undefined) values[f.name] = Array.isArray(f.default) ? [...f.default] : f.default;
  }
  return values;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})$/;

function validDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
}

function checkFormat(format: StringField['format'], v: string): string | undefined {
  switch (format) {
    case 'email':
      return EMAIL.test(v) ? undefined : 'Enter an email address';
    case 'uri':
      try {
        new URL(v);
        return undefined;
      } catch {
        return 'Enter a full URI (for example https://example.com)';
      }
    case 'date':
      return validDate(v) ? undefined : 'Enter a date as YYYY-MM-DD';
    case 'date-time':
      return DATE_TIME.test(v) && !Number.isNaN(Date.parse(v))
        ? undefined
        : 'Enter a date and time with a time zone, e.g. 2026-01-31T09:30:00Z';
    default:
      return undefined;
  }
}

/** The outcome of validating answers. */
export type ElicitValidation = { ok: true; content: Record<string, ElicitValue> } | { ok: false; errors: Record<string, string> };

/**
 * Validates answers against the form. Number fields accept numbers or numeric strings (what an input holds);
 * empty strings count as "not answered". Unknown keys are dropped, never sent.
 */
export function validateElicitation(form: ElicitForm, answers: Record<string, unknown>): ElicitValidation {
  const errors: Record<string, string> = {};
  const content: Record<string, ElicitValue> = {};
  for (const f of form.fields) {
    const raw = answers[f.name];
    const missing = raw === undefined || raw === null || raw === '' || (Array.isArray(raw) && raw.length === 0 && f.kind !== 'multiEnum');
    if (missing) {
      if (f.required)
        errors[f.name] = f.kind === 'enum' || f.kind === 'multiEnum' ? `Choose a value for ${f.label}` : `Enter a value for ${f.label}`;
      continue;
    }
    switch (f.kind) {
      case 'string': {
        if (typeof raw !== 'string') {
          errors[f.name] = 'Enter text';
          break;
        }
        const chars = [...raw].length;
        if (f.minLength !== undefined && chars < f.minLength) errors[f.name] = `At least ${f.minLength} characters`;
        else if (f.maxLength !== undefined && chars > f.maxLength) errors[f.name] = `At most ${f.maxLength} characters`;
        else {
          const bad = checkFormat(f.format, raw);
          if (bad) errors[f.name] = bad;
          else content[f.name] = raw;
        }
        break;
      }
      case 'number': {
        const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
        if (!Number.isFinite(n)) errors[f.name] = 'Enter a number';
        else if (f.integer && !Number.isInteger(n)) errors[f.name] = 'Enter a whole number';
        else if (f.minimum !== undefined && n < f.minimum) errors[f.name] = `At least ${f.minimum}`;
        else if (f.maximum !== undefined && n > f.maximum) errors[f.name] = `At most ${f.maximum}`;
        else content[f.name] = n;
        break;
      }
      case 'boolean':
        if (typeof raw !== 'boolean') errors[f.name] = 'Choose yes or no';
        else content[f.name] = raw;
        break;
      case 'enum':
        if (typeof raw !== 'string' || !f.options.some((o) => o.value === raw)) errors[f.name] = 'Choose one of the options';
        else content[f.name] = raw;
        break;
      case 'multiEnum': {
        if (!Array.isArray(raw) || !raw.every((x) => typeof x === 'string' && f.options.some((o) => o.value === x))) {
          errors[f.name] = 'Choose from the options';
          break;
        }
        const picked = [...new Set(raw as string[])];
        if (f.required && picked.length === 0) errors[f.name] = `Choose at least one value for ${f.label}`;
        else if (f.minItems !== undefined && picked.length < f.minItems) errors[f.name] = `Choose at least ${f.minItems}`;
        else if (f.maxItems !== undefined && picked.length > f.maxItems) errors[f.name] = `Choose at most ${f.maxItems}`;
        else content[f.name] = picked;
        break;
      }
    }
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, content };
}
