// CredentialStore backed by the OS keychain through keytar's API (Secret Service, Keychain, Credential Vault), from
// GitHub's maintained fork @github/keytar: its N-API binaries for Linux, macOS and Windows (x64 and arm64) ship inside
// the package, so installing needs no compiler and no download, and one binary loads in Node and in Electron. It
// stores items exactly as the archived keytar did (Secret Service attributes `service` + `account`, the same
// Keychain and Credential Vault entries), so secrets stored before the switch are read as they are. Opening it tells
// "the module could not be loaded" (a binary for another platform, a missing libsecret) apart from "no keychain
// answered", each with the real error, so the person sees why secrets are not in the keychain.
import { createRequire } from 'node:module';
import type { CredentialStore } from '../core/ports.js';
import { truncate } from '../core/text.js';

/** Keychain service name under which every Switchboard secret is stored. */
export const KEYCHAIN_SERVICE = 'Switchboard';

/** The part of keytar this store uses. */
export interface Keytar {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
  findCredentials(service: string): Promise<{ account: string; password: string }[]>;
}

/** What opening the keychain found. */
export type KeychainOpen = { ok: true; store: CredentialStore } | { ok: false; stage: 'load' | 'probe'; message: string };

/** Loads keytar (tests pass a loader that fails the way a broken install does). */
export type KeytarLoader = () => Keytar;

const loadKeytar: KeytarLoader = () => createRequire(import.meta.url)('@github/keytar') as Keytar;

/** An error's message, short and on one line. */
const describe = (err: unknown): string =>
  truncate(
    String(err instanceof Error ? err.message : err)
      .replace(/\s+/g, ' ')
      .trim(),
    300,
  );

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

  /** Opens the keychain: loads keytar, then asks the keychain service to answer within `probeMs`. */
  static async open(service: string = KEYCHAIN_SERVICE, probeMs = 3000, load: KeytarLoader = loadKeytar): Promise<KeychainOpen> {
    let keytar: Keytar;
    try {
      keytar = load();
    } catch (err) {
      return { ok: false, stage: 'load', message: describe(err) };
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the keychain did not answer within ${probeMs / 1000} s`)), probeMs);
      });
      await Promise.race([keytar.findCredentials(service), timeout]);
      return { ok: true, store: new KeytarCredentialStore(keytar, service) };
    } catch (err) {
      return { ok: false, stage: 'probe', message: describe(err) };
    } finally {
      clearTimeout(timer);
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

  async accounts(): Promise<string[]> {
    return (await this.#keytar.findCredentials(this.#service)).map((c) => c.account);
  }
}
