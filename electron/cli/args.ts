// The command line's flags, parsed once with node:util parseArgs; commands read the ones they take.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CliError } from './cli-error.js';

/** Every flag any command takes. */
export interface Flags {
  dataDir?: string;
  config?: string;
  yes: boolean;
  json: boolean;
  help: boolean;
  server?: string;
  args?: string;
  timeout?: string;
  name?: string;
  id?: string;
  reporter?: string;
  out?: string;
  concurrency?: string;
  requests?: string;
  duration?: string;
  rate?: string;
  allowRemote: boolean;
  waitForAuth?: string;
  otlp?: string;
  probe: boolean;
}

/** The command words and the flags. */
export interface Parsed {
  words: string[];
  flags: Flags;
}

/** Parses argv; an unknown flag or a missing value is a usage error. */
export function parseCommandLine(argv: string[]): Parsed {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        'data-dir': { type: 'string' },
        config: { type: 'string' },
        yes: { type: 'boolean', short: 'y', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
        server: { type: 'string' },
        args: { type: 'string' },
        timeout: { type: 'string' },
        name: { type: 'string' },
        id: { type: 'string' },
        reporter: { type: 'string' },
        out: { type: 'string' },
        concurrency: { type: 'string' },
        requests: { type: 'string' },
        duration: { type: 'string' },
        rate: { type: 'string' },
        'allow-remote': { type: 'boolean', default: false },
        'wait-for-auth': { type: 'string' },
        otlp: { type: 'string' },
        probe: { type: 'boolean', default: false },
      },
    });
    const { 'data-dir': dataDir, 'allow-remote': allowRemote, 'wait-for-auth': waitForAuth, ...rest } = values;
    const flags = {
      ...rest,
      ...(dataDir !== undefined ? { dataDir } : {}),
      ...(waitForAuth !== undefined ? { waitForAuth } : {}),
      allowRemote,
    };
    return { words: positionals, flags: flags as Flags };
  } catch (err) {
    throw CliError.usage((err as Error).message);
  }
}

/** `--args JSON` or `--args @file`: a JSON object. */
export function readArgs(raw: string | undefined): Record<string, unknown> {
  if (raw === undefined) return {};
  let text = raw;
  if (raw.startsWith('@')) {
    try {
      text = readFileSync(raw.slice(1), 'utf8');
    } catch (err) {
      throw CliError.usage(`Cannot read --args file ${raw.slice(1)}: ${(err as Error).message}`);
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw CliError.usage(`--args is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw CliError.usage('--args must be a JSON object');
  return value as Record<string, unknown>;
}

/** A positive number flag (seconds, counts), or undefined when absent. */
export function positiveNumber(name: string, raw: string | undefined, integer = false): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n)))
    throw CliError.usage(`--${name} must be a positive ${integer ? 'whole number' : 'number'}, got ${raw}`);
  return n;
}
