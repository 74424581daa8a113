// An @rjsf validator that never generates code at run time: ajv compiles schemas with `new Function`, which the
// renderer's Content-Security-Policy (no 'unsafe-eval') forbids. @cfworker/json-schema interprets schemas instead.
import { Validator, type OutputUnit, type Schema } from '@cfworker/json-schema';
import { toErrorSchema, type RJSFSchema, type RJSFValidationError, type ValidationData, type ValidatorType } from '@rjsf/utils';

const WRAPPERS = new Set([
  'properties',
  'items',
  'prefixItems',
  '$ref',
  '$dynamicRef',
  'allOf',
  'additionalItems',
  'unevaluatedProperties',
]);
const cache = new WeakMap<object, Validator>();

function validatorFor(schema: RJSFSchema, root?: RJSFSchema): Validator {
  const effective: RJSFSchema =
    root && root !== schema
      ? { ...schema, ...(root.$defs ? { $defs: root.$defs } : {}), ...(root.definitions ? { definitions: root.definitions } : {}) }
      : schema;
  let v = cache.get(effective);
  if (!v) {
    v = new Validator(effective as Schema, '2020-12', false);
    cache.set(effective, v);
  }
  return v;
}

function toProperty(instanceLocation: string): string {
  const parts = instanceLocation
    .replace(/^#\/?/, '')
    .split('/')
    .filter((p) => p !== '')
    .map((p) => decodeURIComponent(p.replace(/~1/g, '/').replace(/~0/g, '~')));
  return parts.map((p) => `.${p}`).join('');
}

function toError(unit: OutputUnit): RJSFValidationError {
  let property = toProperty(unit.instanceLocation);
  let message = unit.error.replace(/^Instance /, 'Value ');
  if (unit.keyword === 'required') {
    const missing = /"([^"]+)"/.exec(unit.error)?.[1];
    if (missing !== undefined) {
      property = `${property}.${missing}`;
      message = `must have required property '${missing}'`;
    }
  }
  return {
    name: unit.keyword,
    property,
    message,
    stack: `${property || 'arguments'} ${message}`.trim(),
    schemaPath: unit.keywordLocation,
    params: {},
  };
}

function run(schema: RJSFSchema, data: unknown, root?: RJSFSchema): RJSFValidationError[] {
  const result = validatorFor(schema, root).validate(data === undefined ? {} : data);
  if (result.valid) return [];
  const leaves = result.errors.filter((u) => !WRAPPERS.has(u.keyword));
  return (leaves.length > 0 ? leaves : result.errors.slice(0, 1)).map(toError);
}

/** The eval-free validator used by every generated form. */
export const cspValidator: ValidatorType = {
  // Switchboard's forms use no custom validation, so the third argument is ignored.
  validateFormData(formData, schema, _customValidate, transformErrors, uiSchema): ValidationData<unknown> {
    let errors: RJSFValidationError[];
    try {
      errors = run(schema, formData);
    } catch (err) {
      errors = [
        {
          name: 'schema',
          message: `The schema could not be checked: ${err instanceof Error ? err.message : 'error'}`,
          stack: 'The schema could not be checked',
          property: '',
        },
      ];
    }
    if (transformErrors) errors = transformErrors(errors, uiSchema);
    return { errors, errorSchema: toErrorSchema<unknown>(errors) };
  },
  isValid(schema, formData, rootSchema): boolean {
    try {
      return run(schema, formData, rootSchema).length === 0;
    } catch {
      return false;
    }
  },
  rawValidation<Result = unknown>(schema: RJSFSchema, formData?: unknown): { errors?: Result[]; validationError?: Error } {
    try {
      return { errors: run(schema, formData) as unknown as Result[] };
    } catch (err) {
      return { validationError: err instanceof Error ? err : new Error('validation failed') };
    }
  },
};
