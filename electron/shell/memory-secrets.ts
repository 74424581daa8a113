// The shell's keeping of secrets that can only live in memory (no keychain, no safeStorage): the core asks for them
// over the link, so they outlive a core process that crashes and is restarted, and still never reach the disk. Both
// shells put this in front of their own answers to the core.
import type { MemorySecretsRequest, ShellRequest } from '../core-process/messages.js';
import { MemoryCredentialStore } from '../platform/memory-credential-store.js';

/** Most secrets held (a runaway core cannot grow the shell without bound). */
export const MAX_MEMORY_SECRETS = 10_000;
/** Longest secret held, in characters. */
export const MAX_MEMORY_SECRET_CHARS = 1024 * 1024;

const isMemoryRequest = (request: ShellRequest): request is MemorySecretsRequest => request.op.startsWith('memorySecrets.');

/** Answers the core's memory-secret requests itself and passes everything else to `serve`. */
export function withMemorySecrets(serve: (request: ShellRequest) => Promise<unknown>): (request: ShellRequest) => Promise<unknown> {
  const store = new MemoryCredentialStore();
  let count = 0;
  return async (request) => {
    if (!isMemoryRequest(request)) return serve(request);
    switch (request.op) {
      case 'memorySecrets.get':
        return store.get(request.account);
      case 'memorySecrets.set': {
        // Refusals name the limit, never the value.
        if (request.value.length > MAX_MEMORY_SECRET_CHARS)
          throw new Error(`a secret longer than ${MAX_MEMORY_SECRET_CHARS} characters is not kept`);
        const known = (await store.get(request.account)) !== null;
        if (!known && count >= MAX_MEMORY_SECRETS) throw new Error(`more than ${MAX_MEMORY_SECRETS} secrets are not kept in memory`);
        await store.set(request.account, request.value);
        if (!known) count += 1;
        return true;
      }
      case 'memorySecrets.delete':
        if ((await store.get(request.account)) !== null) count -= 1;
        await store.delete(request.account);
        return true;
      case 'memorySecrets.accounts':
        return store.accounts();
    }
  };
}
