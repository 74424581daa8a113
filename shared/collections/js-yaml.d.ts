// The one js-yaml function the collection reader uses (the package ships no types; @types/js-yaml is not installed).
declare module 'js-yaml' {
  /** Parses one YAML document (the default schema: no custom tags, no code). */
  export function load(text: string, options?: { filename?: string }): unknown;
}
