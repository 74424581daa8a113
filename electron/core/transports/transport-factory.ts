// The port between the session manager and the transport implementations.
import type { AuthProvider, Transport } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/config.js';
import type { ErrorEvidence } from '../../../shared/errors.js';
import type { IngressStage } from '../ingress/incoming.js';
import type { ProcessSink } from '../sessions/process-record.js';

/** Diagnostics a live transport keeps for the connection doctor and the log view. */
export interface TransportDiagnostics {
  /** Evidence about why the transport ended or failed (exit code, stderr tail, HTTP status...). */
  evidence(): ErrorEvidence;
}

/** Callbacks a transport uses to report log lines (stderr, skipped stdout lines, refusals). */
export interface TransportLog {
  (source: 'stderr' | 'stdout' | 'protocol', level: 'debug' | 'info' | 'warning' | 'error', text: string): void;
}

/** Everything needed to open one transport for one server. */
export interface TransportContext {
  /** The server definition. */
  config: ServerConfig;
  /** Resolved environment values (secrets already read from the credential store). */
  env: Record<string, string>;
  /** PATH resolved from the user's login shell at start-up (stdio only). */
  loginPath?: string;
  /** Where log lines go. */
  log: TransportLog;
  /** Credentials for HTTP/SSE servers (bearer, OAuth, client credentials), set by authorization. */
  auth?: TransportAuthContext;
  /** Where a stdio transport reports the process group it spawned and, once released, that it is gone. */
  processes?: ProcessSink;
  /** Ingress stages every received message passes first (see ingress/incoming.ts); applied by withIngress. */
  ingress?: readonly IngressStage[];
}

/** What authorization hands an HTTP/SSE transport. */
export interface TransportAuthContext {
  /** Supplies the Authorization token per request and handles a 401 once. */
  provider: AuthProvider;
  /** Receives every 401/403 response carrying a WWW-Authenticate challenge (scope, resource_metadata). */
  onChallenge(response: Response): void;
  /** Wraps the transport's fetch (DPoP-bound tokens: proof per request); absent means no wrapping. */
  wrapFetch?: (
    next: (input: string | URL, init?: RequestInit) => Promise<Response>,
  ) => (input: string | URL, init?: RequestInit) => Promise<Response>;
}

/** A transport ready for Client.connect, plus its diagnostics and a full release. */
export interface OpenedTransport {
  /** The SDK-compatible transport. */
  transport: Transport;
  /** Diagnostics for the doctor. */
  diagnostics: TransportDiagnostics;
  /** Releases everything (for stdio: close stdin, wait, SIGTERM, SIGKILL the process group). */
  release(): Promise<void>;
  /** The server floods the session: read its messages more slowly for a while (stdio; others may ignore it). */
  pace?(): void;
}

/** Opens a fresh transport for a server; each lifecycle attempt gets a new one. */
export type TransportFactory = (ctx: TransportContext) => OpenedTransport;
