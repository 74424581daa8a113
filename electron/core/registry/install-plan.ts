// server.json → a server definition: npm runs as `npx -y <identifier>@<version>`, pypi as `uvx <identifier>==<version>`,
// oci as `docker run -i --rm <image>`; runtime and package arguments (positional and named, {variables}, repeated) and
// environment variables become inputs; remotes become Streamable HTTP or SSE with URL variables and headers.
// Every value stays one argv entry (nothing ever goes through a shell), whatever characters it holds.
import { checkServerUrl, ServerConfigInputSchema, type ServerConfigInput } from '../../../shared/config.js';
import type { InstallInput, InstallValues } from '../../../shared/domains/registry.js';
import { AppError } from '../../../shared/errors.js';
import { slugId } from '../import/import-service.js';
import { sanitizeText, truncate } from '../text.js';
import { describeOptions, type LocalPackages, type OptionFacts } from './install-options.js';
import type { RuntimeChecks } from './runtimes.js';
import type { ServerArgument, ServerInput, ServerJson, ServerKeyValue, ServerPackage, ServerRemote } from './server-json.js';

/** Preview shows secrets as placeholders; install puts the real values in. */
export type PlanMode = 'preview' | 'install';

/** What a plan needs besides the entry. */
export interface PlanContext {
  /** Runtimes found on this machine. */
  runtimes: RuntimeChecks;
  /** Test-only local packages. */
  local?: LocalPackages;
  /** Server ids already in use. */
  existingIds: ReadonlySet<string>;
  /** Preview or install. */
  mode: PlanMode;
  /** Id to use instead of one derived from the entry. */
  id?: string;
  /** Display name to use instead of the entry's title. */
  displayName?: string;
  /**
   * Env names (and `header:NAME` keys) whose secret is already in the credential store: an update keeps them unless a
   * new value is given.
   */
  storedSecrets?: ReadonlySet<string>;
}

/** A definition made from an entry, and what it still needs. */
export interface InstallPlan {
  /** The option used. */
  choice: number;
  /** Every option. */
  options: OptionFacts[];
  /** The definition (install mode: secret env values carry their value). */
  config: ServerConfigInput;
  /** Inputs in order. */
  inputs: InstallInput[];
  /** Required inputs without a value, and inputs whose value is not acceptable. */
  missing: string[];
  /** Cautions for the person. */
  warnings: string[];
  /** Install mode: a secret Authorization header value, stored as the server's bearer token. */
  bearer?: string;
}

const shown = (s: string, max = 300): string => truncate(sanitizeText(s), max);
const VARIABLE = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Collects inputs and their values while the definition is built. */
class Inputs {
  readonly list: InstallInput[] = [];
  readonly missing: string[] = [];
  readonly warnings: string[] = [];
  readonly #values: InstallValues;
  readonly #mode: PlanMode;

  constructor(values: InstallValues, mode: PlanMode) {
    this.#values = values;
    this.#mode = mode;
  }

  get mode(): PlanMode {
    return this.#mode;
  }

  /** Marks a required input as answered after all (its secret is already stored). */
  satisfy(key: string): void {
    for (let i = this.missing.indexOf(key); i !== -1; i = this.missing.indexOf(key)) this.missing.splice(i, 1);
  }

  /**
   * Asks for one input (unless it has a fixed value) and returns its value(s), or undefined when it has none.
   * A fixed `value` template is filled from its `{variables}`, each of which is an input of its own.
   */
  resolve(
    key: string,
    kind: InstallInput['kind'],
    label: string,
    input: ServerInput & { variables?: Record<string, ServerInput> | undefined },
    repeated = false,
  ): { values: string[]; secret: boolean } | undefined {
    if (input.value !== undefined) {
      const filled = this.fill(input.value, key, kind, input.variables ?? {});
      return { values: [filled.text], secret: filled.secret || input.isSecret === true };
    }
    const secret = input.isSecret === true;
    const format = input.format ?? 'string';
    const entry: InstallInput = {
      key,
      kind,
      label: shown(label, 200),
      required: input.isRequired === true,
      secret,
      format,
      repeated,
      ...(input.description !== undefined ? { description: shown(input.description, 2000) } : {}),
      ...(input.default !== undefined && !secret ? { default: shown(input.default, 4096) } : {}),
      ...(input.choices !== undefined && input.choices.length > 0 ? { choices: input.choices.map((c) => shown(c, 500)) } : {}),
      ...(input.placeholder !== undefined ? { placeholder: shown(input.placeholder, 500) } : {}),
    };
    const given = this.#values[key];
    let values: string[] = [];
    if (given !== undefined && given !== '') values = repeated ? given.split(/\r?\n/).filter((v) => v !== '') : [given];
    if (values.length === 0 && input.default !== undefined && input.default !== '') values = [input.default];
    const problem = values.map((v) => checkValue(v, format, input.choices, repeated)).find((p) => p !== undefined);
    if (problem !== undefined) {
      this.warnings.push(`${shown(label, 100)}: ${problem}`);
      this.missing.push(key);
    }
    if (!secret && values.length > 0) entry.value = values.join('\n');
    this.list.push(entry);
    if (values.length === 0) {
      if (entry.required) this.missing.push(key);
      return undefined;
    }
    return { values, secret };
  }

  /** Fills `{name}` from the template's variables (each an input); unknown names stay as written. */
  fill(
    template: string,
    key: string,
    kind: InstallInput['kind'],
    variables: Record<string, ServerInput>,
  ): { text: string; secret: boolean } {
    let secret = false;
    const text = template.replace(VARIABLE, (whole, name: string) => {
      const variable = variables[name];
      if (variable === undefined) return whole;
      const got = this.resolve(`${key}:var:${name}`, kind, name, variable);
      if (got === undefined) return whole;
      if (got.secret) {
        secret = true;
        if (this.#mode === 'preview') return `<secret ${name}>`;
      }
      return got.values[0] ?? '';
    });
    return { text, secret };
  }
}

/** Why a value is not acceptable for its format or choices, or undefined. */
function checkValue(value: string, format: InstallInput['format'], choices: string[] | undefined, repeated: boolean): string | undefined {
  if (value.includes('\u0000') || (!repeated && /[\r\n]/.test(value))) return 'the value contains a line break or NUL';
  if (format === 'number' && !/^-?\d+(\.\d+)?$/.test(value.trim())) return 'a number is expected';
  if (format === 'boolean' && value !== 'true' && value !== 'false') return 'true or false is expected';
  if (choices !== undefined && choices.length > 0 && !choices.includes(value))
    return `one of ${choices.map((c) => shown(c, 60)).join(', ')} is expected`;
  return undefined;
}

/** An id not yet in use, derived from the entry. */
export function suggestId(server: ServerJson, existing: ReadonlySet<string>): string {
  const tail = server.name.split('/').pop() ?? server.name;
  const base = slugId(server.title ?? tail).slice(0, 58) || 'server';
  if (!existing.has(base)) return base;
  for (let n = 2; ; n++) if (!existing.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** The option to use when none is chosen: the first runnable one, else the first that is not blocked. */
export function defaultChoice(options: OptionFacts[]): number | undefined {
  return options.find((o) => o.option.runnable)?.option.index ?? options.find((o) => o.blocked === undefined)?.option.index;
}

/** Builds the definition for one option of an entry. */
export function planInstall(server: ServerJson, choice: number | undefined, values: InstallValues, ctx: PlanContext): InstallPlan {
  const options = describeOptions(server, ctx.runtimes, ctx.local);
  if (options.length === 0) throw new AppError('config_invalid', 'This entry lists no packages or remotes to install');
  const index = choice ?? defaultChoice(options);
  const facts = index !== undefined ? options[index] : undefined;
  if (facts === undefined || index === undefined) throw new AppError('config_invalid', `There is no option ${choice ?? ''} for this entry`);
  if (facts.blocked !== undefined) throw new AppError('config_invalid', facts.blocked);
  const inputs = new Inputs(values, ctx.mode);
  if (!facts.option.runnable && facts.option.reason !== undefined) inputs.warnings.push(facts.option.reason);
  const id = ctx.id ?? suggestId(server, ctx.existingIds);
  const name = ctx.displayName ?? truncate(sanitizeText(server.title ?? server.name.split('/').pop() ?? server.name), 200);
  let bearer: string | undefined;
  let transport: ServerConfigInput['transport'];
  if (facts.source.kind === 'package') {
    transport = packageTransport(facts.source.pkg, inputs, ctx);
  } else {
    const remote = remoteTransport(facts.source.remote, inputs, ctx.storedSecrets);
    transport = remote.transport;
    bearer = remote.bearer;
  }
  const config: ServerConfigInput = { id, name, transport, startup: 'eager' };
  const check = ServerConfigInputSchema.safeParse(config);
  if (!check.success) {
    for (const issue of check.error.issues) {
      const problem = `${issue.path.slice(1).join('.') || 'definition'}: ${issue.message}`;
      if (!inputs.warnings.includes(problem)) inputs.warnings.push(problem);
    }
  }
  return {
    choice: index,
    options,
    config,
    inputs: inputs.list,
    missing: [...new Set(inputs.missing)],
    warnings: inputs.warnings,
    ...(bearer !== undefined ? { bearer } : {}),
  };
}

/** argv entries for a list of arguments; `where` names them in input keys (runtime / package). */
function argv(args: ServerArgument[] | undefined, where: 'runtime' | 'package', inputs: Inputs, secretsOnCommandLine: string[]): string[] {
  const out: string[] = [];
  (args ?? []).forEach((arg, i) => {
    const key = `${where}:${i}`;
    const label = arg.type === 'named' ? arg.name : (arg.valueHint ?? `argument ${i + 1}`);
    const got = inputs.resolve(key, 'argument', label, arg, arg.isRepeated === true && arg.value === undefined);
    if (got?.secret) secretsOnCommandLine.push(label);
    if (arg.type === 'positional') {
      if (got !== undefined) out.push(...got.values);
      return;
    }
    if (got === undefined) return;
    if ((arg.format ?? 'string') === 'boolean' && arg.value === undefined) {
      if (got.values.includes('true')) out.push(arg.name);
      return;
    }
    for (const value of got.values) out.push(arg.name, value);
  });
  return out;
}

function packageTransport(pkg: ServerPackage, inputs: Inputs, ctx: PlanContext): ServerConfigInput['transport'] {
  const type = pkg.registryType.toLowerCase();
  const onCommandLine: string[] = [];
  const env: Record<string, string | { secret: true; value?: string }> = {};
  for (const variable of pkg.environmentVariables ?? []) envEntry(variable, inputs, env, ctx.storedSecrets);
  const runtimeArgs = argv(pkg.runtimeArguments, 'runtime', inputs, onCommandLine);
  const packageArgs = argv(pkg.packageArguments, 'package', inputs, onCommandLine);
  if (onCommandLine.length > 0) {
    inputs.warnings.push(
      `A secret (${onCommandLine.map((l) => shown(l, 60)).join(', ')}) is passed on the command line: it is stored in the settings and visible to other programs on this machine`,
    );
  }
  if (pkg.version === undefined) inputs.warnings.push('The entry does not pin a package version: whatever is newest runs each time');
  if (/[\s;&|`$<>()'"\\*?!]|\.\.\//.test(pkg.identifier)) {
    inputs.warnings.push('The package identifier contains characters a package name does not normally hold; check it before approving');
  }
  const local = type === 'npm' ? ctx.local?.[pkg.identifier] : undefined;
  let command: string;
  let args: string[];
  if (local !== undefined) {
    command = local.command;
    args = [...local.args, ...packageArgs];
  } else if (type === 'npm') {
    command = 'npx';
    args = ['-y', ...runtimeArgs, pkg.version !== undefined ? `${pkg.identifier}@${pkg.version}` : pkg.identifier, ...packageArgs];
  } else if (type === 'pypi') {
    command = 'uvx';
    args = [...runtimeArgs, pkg.version !== undefined ? `${pkg.identifier}==${pkg.version}` : pkg.identifier, ...packageArgs];
  } else {
    // docker passes a variable named with `-e NAME` (no value) through from its own environment, so secrets stay off argv.
    const envFlags = Object.keys(env).flatMap((name) => ['-e', name]);
    command = 'docker';
    args = ['run', '-i', '--rm', ...envFlags, ...runtimeArgs, imageRef(pkg.identifier, pkg.version), ...packageArgs];
  }
  return { type: 'stdio', command, args, env };
}

/** The image reference: the identifier with `:version` unless it already names a tag or digest. */
export function imageRef(identifier: string, version: string | undefined): string {
  const last = identifier.split('/').pop() ?? identifier;
  if (version === undefined || last.includes(':') || identifier.includes('@')) return identifier;
  return `${identifier}:${version}`;
}

function envEntry(
  variable: ServerKeyValue,
  inputs: Inputs,
  env: Record<string, string | { secret: true; value?: string }>,
  stored: ReadonlySet<string> = new Set(),
): void {
  const key = `env:${variable.name}`;
  const got = inputs.resolve(key, 'env', variable.name, variable);
  if (got === undefined && variable.isSecret === true && stored.has(variable.name)) {
    inputs.satisfy(key);
    env[variable.name] = { secret: true };
    return;
  }
  if (got === undefined) {
    // A secret the person has not typed yet is still part of the launch (preview shows its name).
    if (variable.isSecret === true && variable.value === undefined && inputs.mode === 'preview') env[variable.name] = { secret: true };
    return;
  }
  const value = got.values.join(',');
  if (got.secret) env[variable.name] = inputs.mode === 'install' ? { secret: true, value } : { secret: true };
  else env[variable.name] = value;
}

function remoteTransport(
  remote: ServerRemote,
  inputs: Inputs,
  stored: ReadonlySet<string> = new Set(),
): { transport: ServerConfigInput['transport']; bearer?: string } {
  const filled = inputs.fill(remote.url, 'url', 'url', remote.variables ?? {});
  const url = filled.text;
  const unresolved = /\{[A-Za-z_][A-Za-z0-9_]*\}/.test(url);
  if (unresolved) inputs.warnings.push('The URL still has variables without a value');
  if (filled.secret) inputs.warnings.push('A secret is part of the URL: it is stored in the settings file');
  const problem = unresolved ? null : checkServerUrl(url, false);
  if (problem !== null) {
    inputs.warnings.push(`URL: ${problem}`);
    // The values that make up the URL are what the person must change (a leading {baseUrl} decides the scheme).
    const parts = inputs.list.filter((i) => i.key.startsWith('url:var:')).map((i) => i.key);
    inputs.missing.push(...(parts.length > 0 ? parts : ['url']));
  }
  const headers: Record<string, string | { secret: true; value?: string }> = {};
  let bearer: string | undefined;
  for (const header of remote.headers ?? []) {
    const key = `header:${header.name}`;
    const got = inputs.resolve(key, 'header', header.name, header);
    if (got === undefined) {
      // An update keeps a secret header already in the credential store unless a new value is given.
      if (header.isSecret === true && stored.has(key)) {
        inputs.satisfy(key);
        headers[header.name] = { secret: true };
      } else if (header.isSecret === true && header.value === undefined && inputs.mode === 'preview') {
        // A secret the person has not typed yet is still part of the launch (preview shows its name).
        headers[header.name] = { secret: true };
      }
      continue;
    }
    const value = got.values.join(',');
    if (header.name.toLowerCase() === 'authorization') {
      // Switchboard owns Authorization: a token given here becomes the server's bearer token (credential store).
      const token = value.replace(/^Bearer\s+/i, '');
      if (inputs.mode === 'install') bearer = token;
      continue;
    }
    // A secret header (or one filled from a secret variable) goes to the credential store like the Add dialog's,
    // never into the settings file; the preview shows only that it is secret.
    if (got.secret || header.isSecret === true)
      headers[header.name] = inputs.mode === 'install' ? { secret: true, value } : { secret: true };
    else headers[header.name] = value;
  }
  return {
    transport: { type: remote.type === 'sse' ? 'sse' : 'http', url, headers },
    ...(bearer !== undefined ? { bearer } : {}),
  };
}
