// CredentialStore backed by the OS keychain through keytar (Secret Service, Keychain, Credential Vault).
import { createRequire } from 'node:module';
import type { CredentialStore } from '../core/ports.js';

/** Keychain service name under which every Switchboard secret is stored. */
export const KEYCHAIN_SERVICE = 'Switchboard';

interface Keytar {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
  findCredentials(service: string): Promise<{ account: string; password: string }[]>;
}

/** Secrets in the OS keychain; survives restarts. */
export class KeytarCredentialStore implements CredentialStore {
  readonly kind = 'keychain' as const;
  readonly persistent = true;
  readonly #keytar: Keytar;
  readonly #service: string;

  private constructor(keytar: Keytar, service: string) {
    this.#keytar = keytar;
    this.#service = service;
  }

  /** Opens the keychain, or returns null when keytar or a keychain service is unavailable. */
  static async open(service: string = KEYCHAIN_SERVICE, probeMs = 3000): Promise<KeytarCredentialStore | null> {
    let keytar: Keytar;
    try {
      keytar = createRequire(import.meta.url)('keytar') as Keytar;
    } catch {
      return null;
    }
    try {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('keychain probe timed out')), probeMs);
      });
      await Promise.race([keytar.findCredentials(service), timeout]).finally(() => clearTimeout(timer));
      return new KeytarCredentialStore(keytar, service);
    } catch {
      return null;
    }
  }

  get(account: string): Promise<string | null> {
    return this.#keytar.getPassword(this.#service, account);
  }

  set(account: string, value: string): Promise<void> {
    return this.#keytar.setPassword(this.#service, account, value);
  }

  async delete(account: string): Promise<void> {
    await this.#keytar.deletePassword(this.#service, account);
  }
}
