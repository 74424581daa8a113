// The per-server authorization state all parts share, with the small helpers around it (logging, announcing, sessions).
import { DpopSessions } from './dpop.js';
import type { FetchLike } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/config.js';
import type { ServerStatus } from '../../../shared/contract.js';
import type { AuthStep } from '../../../shared/domains/auth.js';
import { AppError } from '../../../shared/errors.js';
import type { EventBus } from '../event-bus.js';
import type { CredentialStore } from '../ports.js';
import { describeAuthError } from './auth-errors.js';
import type { AdoptSignIns, BrowserOpener, ListenForRedirect } from './auth-ports.js';
import { buildStatus } from './auth-status.js';
import { plainText } from './callback.js';
import { AuthCredentials, type GrantRecord } from './credentials.js';
import { createOAuthFetch } from './oauth-fetch.js';
import type { Flow } from './sign-in-flow.js';
import type { DeviceFlow } from './device-code.js';

/** The parts of the Host authorization uses (the Host satisfies it structurally). */
export interface AuthHost {
  readonly events: EventBus;
  readonly credentials: CredentialStore;
  config(id: string): ServerConfig;
  readonly sessions: {
    connect(id: string): Promise<ServerStatus>;
    disconnect(id: string): Promise<ServerStatus>;
    status(id: string): ServerStatus;
  };
}

/** What the manager is built from. */
export interface AuthManagerOptions {
  host: AuthHost;
  /** System browser (Electron) or print-only opener (headless). */
  opener: BrowserOpener;
  /** Starts the loopback redirect listener for one flow. */
  listen: ListenForRedirect;
  /** The sign-ins the shell held while the core before this one stopped (taken over by resumeSignIns). */
  adopt?: AdoptSignIns;
  /** Network fetch under the guards (tests may pass their own). */
  fetch?: FetchLike;
  /** Log sink for plain-words lines (never secrets). */
  log?: (serverId: string, level: 'info' | 'warning' | 'error', text: string) => void;
  /** Flow lifetime (tests shorten it). */
  flowTimeoutMs?: number;
  /** Clock (tests). */
  now?: () => number;
}

/** The last 401/403 challenge a server sent. */
export interface Challenge {
  status: number;
  scope?: string;
  resourceMetadataUrl?: URL;
  error?: string;
  at: number;
}

/** Where and how the last sign-in failed. */
export interface Failure {
  step: AuthStep;
  message: string;
  attempt: number;
}

/** Every server's authorization state, shared by the sign-in flow, token acquisition and status. */
export class AuthContext {
  readonly host: AuthHost;
  readonly opts: AuthManagerOptions;
  readonly creds: AuthCredentials;
  /** Per-server DPoP keys (credential store) and their nonce state. */
  readonly dpop: DpopSessions;
  readonly now: () => number;
  readonly flows = new Map<string, Flow>();
  /** Device sign-ins (RFC 8628) waiting for their code to be entered. */
  readonly deviceFlows = new Map<string, DeviceFlow>();
  readonly failures = new Map<string, Failure>();
  readonly challenges = new Map<string, Challenge>();
  readonly guards = new Map<string, Promise<GrantRecord | undefined>>();
  readonly needsAuthReason = new Map<string, string>();
  /** authorization_endpoint exactly as the last metadata document spelled it, per server. */
  readonly rawEndpoints = new Map<string, string>();

  constructor(opts: AuthManagerOptions) {
    this.host = opts.host;
    this.opts = opts;
    this.creds = new AuthCredentials(opts.host.credentials);
    this.dpop = new DpopSessions(opts.host.credentials);
    this.now = opts.now ?? Date.now;
  }

  /** The server's config; refuses stdio servers (authorization applies to HTTP and SSE only). */
  remote(id: string): ServerConfig {
    const config = this.host.config(id);
    if (config.transport.type === 'stdio') {
      throw new AppError('invalid_request', `${config.name} is a stdio server; authorization applies to HTTP and SSE servers only`, {
        serverId: id,
      });
    }
    return config;
  }

  /** The guarded fetch for OAuth requests: URL checks, endpoint policy, no redirects, bounded bodies. */
  fetchFor(config: ServerConfig, trustedOrigins: readonly string[] = []): FetchLike {
    const id = config.id;
    return createOAuthFetch(
      config,
      this.opts.fetch,
      (level, text) => this.log(id, level, text),
      (endpoint) => this.rawEndpoints.set(id, endpoint),
      trustedOrigins,
    );
  }

  /** Emits the server's current status as auth.changed (in the background). */
  announce(id: string): void {
    void buildStatus(this, id).then(
      (status) => this.host.events.emit('auth.changed', status),
      () => undefined,
    );
  }

  /** " (it asks for scope …)" when the last challenge named a scope, else empty. */
  challengeText(id: string): string {
    const c = this.challenges.get(id);
    return c?.scope !== undefined ? ` (it asks for scope "${plainText(c.scope, 200)}")` : '';
  }

  /** Remembers (logs and announces) where a sign-in failed. */
  recordFailure(id: string, step: AuthStep, err: unknown, attempt: number): void {
    const message = err instanceof AppError ? err.message : describeAuthError(id, err).message;
    this.failures.set(id, { step, message, attempt });
    this.log(id, 'warning', `Sign-in failed at ${step}: ${message}`);
    this.announce(id);
  }

  /** Drops the session and connects again with the current credentials. */
  async reconnect(id: string): Promise<void> {
    await this.dropSession(id);
    await this.host.sessions.connect(id);
  }

  /** Drops the live session so the next use connects with the current credentials (in-flight calls may finish). */
  async dropSession(id: string): Promise<void> {
    const state = this.host.sessions.status(id).state;
    if (state !== 'disconnected') await this.host.sessions.disconnect(id);
  }

  /** Passes a plain-words line (never a secret) to the log sink. */
  log(id: string, level: 'info' | 'warning' | 'error', text: string): void {
    this.opts.log?.(id, level, text);
  }
}
