// What the core borrows from the shell, asked over the link: the system browser (Electron's shell.openExternal lives
// in main only), an app's own window, and safeStorage (the fallback credential store). Each request is answered by a
// `reply`; a shell that goes away fails every pending request instead of leaving it waiting.
import { AppError } from '../../shared/errors.js';
import type { BrowserOpener } from '../core/auth/auth-ports.js';
import type { UrlOpener } from '../core/elicitation/url-opener.js';
import type { FrontDoor } from '../core/gateway/http-front.js';
import type { CredentialStore } from '../core/ports.js';
import type { SafeStorageLike } from '../platform/safe-storage-credential-store.js';
import { createBrowserOpener } from '../platform/browser-opener.js';
import type { ReplyMessage, RequestMessage, ShellRequest } from './messages.js';

/** Most requests waiting for the shell at once (a runaway loop fails fast instead of growing without bound). */
const MAX_PENDING = 1000;

/** Sends requests to the shell and matches their replies. */
export class ShellRequests {
  readonly #post: (message: RequestMessage) => boolean;
  readonly #pending = new Map<number, { resolve: (value: unknown) => void; reject: (err: Error) => void }>();
  #next = 1;

  constructor(post: (message: RequestMessage) => boolean) {
    this.#post = post;
  }

  /** Asks the shell; rejects with the shell's message when it refuses. */
  request(req: ShellRequest): Promise<unknown> {
    if (this.#pending.size >= MAX_PENDING) return Promise.reject(new AppError('limit_exceeded', 'Too many requests to the shell at once'));
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      if (!this.#post({ t: 'request', id, ...req })) {
        this.#pending.delete(id);
        reject(new AppError('connection_closed', 'The Switchboard shell is not reachable'));
      }
    });
  }

  /** A reply arrived. */
  settle(reply: ReplyMessage): void {
    const waiting = this.#pending.get(reply.id);
    if (!waiting) return;
    this.#pending.delete(reply.id);
    if (reply.ok) waiting.resolve(reply.value);
    else waiting.reject(new AppError('internal', typeof reply.value === 'string' ? reply.value : 'The shell refused the request'));
  }

  /** The shell is gone: nothing pending will be answered. */
  failAll(reason: string): void {
    for (const waiting of this.#pending.values()) waiting.reject(new AppError('connection_closed', reason));
    this.#pending.clear();
  }
}

/** The system browser, through the shell (the URL policy is applied here and again in the shell). */
export function shellBrowserOpener(requests: ShellRequests): BrowserOpener {
  return createBrowserOpener(async (url) => {
    await requests.request({ op: 'openExternal', url });
  });
}

/** URLs the person consented to open, through the same checked path. */
export function shellUrlOpener(opener: BrowserOpener): UrlOpener {
  return { open: (url) => opener.open(new URL(url)) };
}

/**
 * Secrets kept in memory, held by the shell rather than by this process: a core that crashes and is restarted finds
 * them again (a gateway client's token, a sign-in), while they still never reach the disk.
 */
export function shellMemoryCredentials(requests: ShellRequests): CredentialStore {
  return {
    kind: 'memory',
    persistent: false,
    get: async (account) => {
      const value = await requests.request({ op: 'memorySecrets.get', account });
      return typeof value === 'string' ? value : null;
    },
    set: async (account, value) => {
      await requests.request({ op: 'memorySecrets.set', account, value });
    },
    delete: async (account) => {
      await requests.request({ op: 'memorySecrets.delete', account });
    },
    accounts: async () => {
      const value = await requests.request({ op: 'memorySecrets.accounts' });
      return Array.isArray(value) ? value.filter((a): a is string => typeof a === 'string') : [];
    },
  };
}

/** Electron's safeStorage, through the shell; ciphertext crosses as base64. */
export function shellSafeStorage(requests: ShellRequests, backend: string | undefined): SafeStorageLike {
  return {
    isAsyncEncryptionAvailable: async () => (await requests.request({ op: 'safeStorage.available' })) === true,
    encryptStringAsync: async (plain) => Buffer.from(String(await requests.request({ op: 'safeStorage.encrypt', plain })), 'base64'),
    decryptStringAsync: async (cipher) => {
      const value = await requests.request({ op: 'safeStorage.decrypt', cipher: cipher.toString('base64') });
      const parsed = value as { shouldReEncrypt?: unknown; result?: unknown } | null;
      if (parsed === null || typeof parsed.result !== 'string') throw new AppError('storage_failed', 'safeStorage returned no text');
      return { shouldReEncrypt: parsed.shouldReEncrypt === true, result: parsed.result };
    },
    ...(backend !== undefined ? { getSelectedStorageBackend: () => backend } : {}),
  };
}

/** The shell's listener on the gateway's port: it stays while this process is restarted, answering for the gap. */
export function shellGatewayDoor(requests: ShellRequests): FrontDoor {
  return {
    open: async (port, upstream) => {
      const value = (await requests.request({ op: 'gatewayDoor.open', port, upstream })) as {
        port?: unknown;
        error?: unknown;
        message?: unknown;
      } | null;
      if (value && typeof value.port === 'number') return value.port;
      const message = typeof value?.message === 'string' ? value.message : 'The gateway could not listen';
      throw new AppError(value?.error === 'port_in_use' ? 'port_in_use' : 'internal', message);
    },
    close: async () => {
      await requests.request({ op: 'gatewayDoor.close' });
    },
  };
}
