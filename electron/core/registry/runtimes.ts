// Which package runtimes (npx, uvx, docker) this machine has on the login-shell PATH, looked up the way spawn() will,
// remembered for a minute so a page of results does not search PATH once per entry.
import type { RuntimeCheck } from '../../../shared/domains/registry.js';
import { lookupCommand } from '../doctor/command-lookup.js';

/** The programs packages run with. */
export const RUNTIME_COMMANDS = ['npx', 'uvx', 'docker'] as const;
/** A runtime program name. */
export type RuntimeCommand = (typeof RUNTIME_COMMANDS)[number];
/** How long a lookup is reused. */
const RUNTIME_TTL_MS = 60_000;

/** Every runtime's check. */
export type RuntimeChecks = Record<RuntimeCommand, RuntimeCheck>;

/** Looks the runtimes up in the PATH `loginPath()` resolves to, and remembers the answer briefly. */
export class Runtimes {
  readonly #loginPath: () => Promise<string>;
  readonly #now: () => number;
  #cached: { at: number; checks: Promise<RuntimeChecks> } | undefined;

  constructor(loginPath: () => Promise<string>, now: () => number = Date.now) {
    this.#loginPath = loginPath;
    this.#now = now;
  }

  /** The current checks. */
  checks(): Promise<RuntimeChecks> {
    const now = this.#now();
    if (this.#cached === undefined || now - this.#cached.at > RUNTIME_TTL_MS) {
      this.#cached = { at: now, checks: this.#lookup() };
    }
    return this.#cached.checks;
  }

  async #lookup(): Promise<RuntimeChecks> {
    const pathEnv = await this.#loginPath();
    const entries = await Promise.all(
      RUNTIME_COMMANDS.map(async (command) => {
        const found = await lookupCommand(command, { pathEnv });
        const check: RuntimeCheck = found.executable && found.path !== undefined ? { command, path: found.path } : { command };
        return [command, check] as const;
      }),
    );
    return Object.fromEntries(entries) as RuntimeChecks;
  }
}
