// Human messages for argument validation: "Enter a value for a" instead of "must have required property 'a'".
// Works from the validator's keyword, the failing property path and the schema itself (the keyword's value is read
// from the schema at the error's keyword location), so no wording depends on the validator's English.

/** A JSON Schema node. */
type Schema = Record<string, unknown>;

/** The parts of a validation error the message needs (a subset of rjsf's RJSFValidationError). */
export interface ValidationErrorLike {
  /** The failing keyword (required, type, minimum, format, …). */
  name?: string;
  /** Path of the value, rjsf style: ".owner.name", ".tags.0". */
  property?: string;
  /** JSON pointer of the keyword in the schema ("#/properties/a/minimum"). */
  schemaPath?: string;
  /** The validator's own message (the fallback). */
  message?: string;
}

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

function unescapePointer(seg: string): string {
  return decodeURIComponent(seg).replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Resolves a local JSON pointer ("#/a/b") in `root`. */
function atPointer(root: unknown, pointer: string | undefined): unknown {
  if (!pointer || !pointer.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const seg of pointer
    .replace(/^#\/?/, '')
    .split('/')
    .filter((s) => s !== '')) {
    if (Array.isArray(node)) node = node[Number(seg)];
    else if (isSchema(node)) node = node[unescapePointer(seg)];
    else return undefined;
  }
  return node;
}

/** Follows a local $ref (at most a few hops). */
function deref(root: Schema, node: unknown): Schema | undefined {
  let cur = node;
  for (let i = 0; i < 8 && isSchema(cur) && typeof cur['$ref'] === 'string'; i++) cur = atPointer(root, cur['$ref']);
  return isSchema(cur) ? cur : undefined;
}

/** The words for the value at `property`: its schema title, else its name ("item 2 of tags" for array items). */
export function fieldLabel(root: Schema, property: string | undefined): string {
  const segs = (property ?? '').split('.').filter((s) => s !== '');
  if (segs.length === 0) return 'the arguments';
  let node: Schema | undefined = deref(root, root);
  let label = 'the arguments';
  let parentLabel = label;
  for (const seg of segs) {
    const index = /^\d+$/.test(seg) ? Number(seg) : null;
    let next: unknown;
    if (index !== null && node) {
      const prefix = node['prefixItems'];
      next = Array.isArray(prefix) && index < prefix.length ? prefix[index] : node['items'];
    } else if (node) {
      const props = node['properties'];
      next = isSchema(props) ? props[seg] : undefined;
    }
    parentLabel = label;
    node = next === undefined ? undefined : deref(root, next);
    const title = node && typeof node['title'] === 'string' && node['title'].trim() !== '' ? node['title'].trim() : undefined;
    label = title ?? (index !== null ? `item ${index + 1} of ${parentLabel}` : seg);
  }
  return label;
}

function list(values: unknown[]): string {
  const shown = values.slice(0, 8).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  const more = values.length > 8 ? `, …` : '';
  if (shown.length <= 1) return `${shown[0] ?? ''}${more}`;
  return `${shown.slice(0, -1).join(', ')} or ${shown[shown.length - 1]}${more}`;
}

const FORMATS: Record<string, string> = {
  email: 'an email address',
  'idn-email': 'an email address',
  uri: 'a full address (like https://example.com)',
  'uri-reference': 'an address',
  url: 'a full address (like https://example.com)',
  date: 'a date (YYYY-MM-DD)',
  'date-time': 'a date and time (like 2026-01-31T09:30:00Z)',
  time: 'a time (like 09:30:00)',
  uuid: 'a UUID',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  hostname: 'a host name',
  duration: 'a duration (like P3D)',
};

const TYPES: Record<string, string> = {
  number: 'a number',
  integer: 'a whole number',
  string: 'text',
  boolean: 'yes or no',
  array: 'a list',
  object: 'a group of values',
  null: 'nothing',
};

/** One error in plain words, naming the field. */
export function humanMessage(error: ValidationErrorLike, root: Schema): string {
  const keyword = error.name ?? '';
  const label = fieldLabel(root, error.property);
  const value = atPointer(root, error.schemaPath);
  const n = typeof value === 'number' ? value : undefined;
  switch (keyword) {
    case 'required':
      return `Enter a value for ${label}`;
    case 'type': {
      const types = (Array.isArray(value) ? value : [value]).filter((t): t is string => typeof t === 'string' && t !== 'null');
      const words = types.map((t) => TYPES[t] ?? t);
      return words.length > 0 ? `Enter ${list(words)} for ${label}` : `Enter a value of the right kind for ${label}`;
    }
    case 'minimum':
      return n !== undefined ? `Enter ${n} or more for ${label}` : `${label} is too small`;
    case 'exclusiveMinimum':
      return n !== undefined ? `Enter more than ${n} for ${label}` : `${label} is too small`;
    case 'maximum':
      return n !== undefined ? `Enter ${n} or less for ${label}` : `${label} is too large`;
    case 'exclusiveMaximum':
      return n !== undefined ? `Enter less than ${n} for ${label}` : `${label} is too large`;
    case 'multipleOf':
      return n !== undefined ? `Enter a multiple of ${n} for ${label}` : `${label} is not an allowed step`;
    case 'minLength':
      return n === 1 ? `Enter a value for ${label}` : `Enter at least ${n ?? 'more'} characters for ${label}`;
    case 'maxLength':
      return `Use at most ${n ?? 'fewer'} characters for ${label}`;
    case 'pattern':
      return `${capital(label)} does not have the expected form${typeof value === 'string' ? ` (${value.slice(0, 80)})` : ''}`;
    case 'format':
      return typeof value === 'string' ? `Enter ${FORMATS[value] ?? `a valid ${value}`} for ${label}` : `Enter a valid value for ${label}`;
    case 'enum':
      return Array.isArray(value) ? `Choose ${list(value)} for ${label}` : `Choose one of the allowed values for ${label}`;
    case 'const':
      return `${capital(label)} must be ${JSON.stringify(value)}`;
    case 'minItems':
      return `Add at least ${n ?? 'one more'} item${n === 1 ? '' : 's'} to ${label}`;
    case 'maxItems':
      return `Keep at most ${n ?? 'fewer'} item${n === 1 ? '' : 's'} in ${label}`;
    case 'uniqueItems':
      return `The items of ${label} must all be different`;
    case 'additionalProperties': {
      const key = /"([^"]+)"/.exec(error.message ?? '')?.[1];
      return key ? `"${key}" is not allowed in ${label}` : `${capital(label)} has a value that is not allowed`;
    }
    case 'minProperties':
    case 'maxProperties':
      return `${capital(label)} has the wrong number of values`;
    default: {
      const raw = (error.message ?? '').replace(/^(Instance|Value)\s/, '').trim();
      return raw ? `${capital(label)}: ${raw}` : `Check ${label}`;
    }
  }
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
