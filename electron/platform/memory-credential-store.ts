import type { CredentialStore } from '../core/ports.js';

/** Credentials kept in process memory only: lost on restart, never written to disk. */
export class MemoryCredentialStore implements CredentialStore {
  readonly kind = 'memory' as const;
  readonly persistent = false;
  readonly #values = new Map<string, string>();

  async get(account: string): Promise<string | null> {
    return this.#values.get(account) ?? null;
  }

  async set(account: string, value: string): Promise<void> {
    this.#values.set(account, value);
  }

  async delete(account: string): Promise<void> {
    this.#values.delete(account);
  }

  async accounts(): Promise<string[]> {
    return [...this.#values.keys()];
  }
}
