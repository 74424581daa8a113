// What the desktop shell does for its core process: the core lives in a utility process without Electron's main-only
// APIs, so it asks main to open the system browser (main checks the URL again), to open an app's own window, and to
// encrypt or decrypt with safeStorage (ciphertext crosses as base64). Each request is answered or refused with a
// reason; nothing else is served.
import type { ShellRequest } from '../core-process/messages.js';
import type { SafeStorageLike } from '../platform/safe-storage-credential-store.js';

/** The desktop shell's abilities the core may borrow. */
export interface ShellServices {
  /** Opens a URL in the system browser through the checked opener. */
  openExternal(url: string): Promise<void>;
  /** Opens an MCP app's own window for a call. */
  openAppWindow(callId: string): Promise<void>;
  /** Electron's safeStorage. */
  safeStorage: SafeStorageLike;
}

/** Answers one request from the core. */
export function answerShellRequest(services: ShellServices): (request: ShellRequest) => Promise<unknown> {
  return async (request) => {
    switch (request.op) {
      case 'openExternal':
        await services.openExternal(request.url);
        return true;
      case 'openAppWindow':
        await services.openAppWindow(request.callId);
        return true;
      case 'safeStorage.available':
        return services.safeStorage.isAsyncEncryptionAvailable();
      case 'safeStorage.encrypt':
        return (await services.safeStorage.encryptStringAsync(request.plain)).toString('base64');
      case 'safeStorage.decrypt':
        return services.safeStorage.decryptStringAsync(Buffer.from(request.cipher, 'base64'));
      default: {
        const unknown: { op?: unknown } = request;
        throw new Error(`the shell does not serve ${String(unknown.op)}`);
      }
    }
  };
}
