// Test support for authorization: a real Host with the real SessionManager and transports, the AuthManager
// attached as bootstrap does, a recording opener and the real loopback redirect listener.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventMap } from '../../../shared/contract.js';
import type { AuthManager } from '../../../electron/core/auth/auth-manager.js';
import type { BrowserOpener } from '../../../electron/core/auth/auth-ports.js';
import { checkAuthorizationUrl } from '../../../electron/core/auth/safe-url.js';
import type { Host } from '../../../electron/core/host.js';
import { SessionManager } from '../../../electron/core/sessions/session-manager.js';
import { createTransport } from '../../../electron/core/transports/create-transport.js';
import type { CredentialStore } from '../../../electron/core/ports.js';
import { heldSignIns } from '../../../electron/core/auth/held-sign-ins.js';
import { SignInRedirects } from '../../../electron/shell/sign-in-redirects.js';
import { MemoryCredentialStore } from '../../../electron/platform/memory-credential-store.js';
import { confSettingsStore, testCore } from '../../shared/support/harness.js';

/** A recording opener; `onOpen` plays the user's browser. */
export class TestOpener implements BrowserOpener {
  readonly kind = 'browser' as const;
  readonly opened: string[] = [];
  onOpen: ((url: string) => Promise<void>) | undefined;
  async open(url: URL): Promise<void> {
    checkAuthorizationUrl(url.href);
    this.opened.push(url.href);
    if (this.onOpen !== undefined) void this.onOpen(url.href).catch(() => undefined);
  }
}

export interface AuthHarness {
  dir: string;
  host: Host;
  sessions: SessionManager;
  auth: AuthManager;
  opener: TestOpener;
  credentials: CredentialStore;
  events: { event: keyof EventMap; payload: unknown }[];
  logs: string[];
  cleanup(): Promise<void>;
}

export function makeAuthHost(opts: { credentials?: CredentialStore; flowTimeoutMs?: number } = {}): AuthHarness {
  const dir = mkdtempSync(join(tmpdir(), 'sb-auth-'));
  const credentials = opts.credentials ?? new MemoryCredentialStore();
  let sessions: SessionManager | undefined;
  const opener = new TestOpener();
  const logs: string[] = [];
  const signIns = new SignInRedirects({ log: (level, text) => logs.push(`shell ${level} ${text}`) });
  const host = testCore({
    settingsStore: confSettingsStore(dir),
    credentials,
    transports: createTransport,
    createSessions: (h, transports) => {
      sessions = new SessionManager(h, { credentials, createTransport: transports });
      return sessions;
    },
    auth: {
      opener,
      ...heldSignIns((request) => signIns.serve(request)),
      log: (id, level, text) => logs.push(`${id} ${level} ${text}`),
      ...(opts.flowTimeoutMs !== undefined ? { flowTimeoutMs: opts.flowTimeoutMs } : {}),
    },
  });
  const auth = host.auth;
  const events: AuthHarness['events'] = [];
  host.events.subscribe((event, payload) => events.push({ event, payload }));
  if (sessions === undefined) throw new Error('sessions not created');
  return {
    dir,
    host,
    sessions,
    auth,
    opener,
    credentials,
    events,
    logs,
    cleanup: async () => {
      await host.shutdown();
      await signIns.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Adds an HTTP server definition (manual start). */
export async function addHttpServer(host: Host, id: string, url: string): Promise<void> {
  await host.add({ id, name: id, transport: { type: 'http', url, headers: {}, allowInsecureHttp: false }, startup: 'manual' });
}

/** Waits until `check` is true (polls). */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}
