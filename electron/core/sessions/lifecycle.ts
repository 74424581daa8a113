// One connection setup for one server: lifecycle negotiation (auto / discover / initialize), the fallback to a
// fresh transport, the cached discovery verdict, and the setup / attempt / probe deadlines.
import {
  Client,
  type DiscoverResult,
  type Implementation,
  type ListChangedHandlers,
  type PriorDiscovery,
  type ResponseCacheStore,
  type Transport,
} from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/config.js';
import { AppError, type ErrorEvidence } from '../../../shared/errors.js';
import { depthStage } from '../ingress/depth-stage.js';
import type { IngressStage } from '../ingress/incoming.js';
import { resultTypeStage } from '../ingress/result-type-stage.js';
import { LiveTaps } from '../transports/pipeline.js';
import type { OpenedTransport, TransportFactory, TransportLog } from '../transports/transport-factory.js';
import { cancelledError, withDeadline } from './deadline.js';
import { diagnose, timeoutError, type ConnectPhase } from './doctor.js';

/** The only protocol revision reached through server/discover today. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** A live, negotiated connection. */
export interface Established {
  /** The connected SDK client. */
  client: Client;
  /** Its transport, with diagnostics and release. */
  opened: OpenedTransport;
  /** Negotiated protocol revision. */
  protocolVersion: string;
  /** Which lifecycle connected. */
  lifecycle: 'discover' | 'initialize';
  /** The discover result (modern connections). */
  discover?: DiscoverResult;
  /** The verdict worth caching for the next connect, if any. */
  verdict?: PriorDiscovery;
}

/** What one setup needs. */
export interface SetupInput {
  /** The server definition. */
  config: ServerConfig;
  /** Resolved stdio env values. */
  env: Record<string, string>;
  /** Login-shell PATH for stdio. */
  loginPath?: string;
  /** Opens transports. */
  factory: TransportFactory;
  /** Where lifecycle and transport lines go. */
  log: TransportLog &
    ((source: 'lifecycle' | 'stderr' | 'stdout' | 'protocol', level: 'debug' | 'info' | 'warning' | 'error', text: string) => void);
  /** A cached verdict from an earlier connect with the same config. */
  prior?: PriorDiscovery;
  /** Called when the cached verdict no longer works (so the caller drops it). */
  onPriorFailed?: () => void;
  /** Client identity sent to servers. */
  clientInfo: Implementation;
  /** Aborts the whole setup (remove, disconnect, update). */
  signal: AbortSignal;
  /** Prepares each fresh Client before connect (elicitation capability and handlers). */
  prepareClient?: (client: Client) => void;
  /** Response cache to use (so an explicit refresh can clear it). */
  responseCacheStore?: ResponseCacheStore;
  /** Called when the server says its tools, prompts or resources changed (both protocol eras). */
  onListChanged?: (kind: 'tools' | 'prompts' | 'resources') => void;
  /** Ingress stages of the session (the notification budget), after the nesting bound. */
  ingress?: readonly IngressStage[];
}

type Plan = { kind: 'prior'; prior: PriorDiscovery } | { kind: 'auto' } | { kind: 'pin' } | { kind: 'legacy' };

/** Why an attempt failed, and whether it got as far as the legacy handshake. */
class AttemptFailure extends Error {
  constructor(
    readonly error: AppError,
    readonly sentInitialize: boolean,
  ) {
    super(error.message);
  }
}

/** Failures no retry on another transport or lifecycle can fix. */
const TERMINAL: ReadonlySet<string> = new Set([
  'auth_required',
  'cancelled',
  'command_not_found',
  'spawn_failed',
  'url_refused',
  'redirect_refused',
  'config_invalid',
  'approval_required',
  'port_blocked',
]);

/**
 * Connects one server per its lifecycle. `auto` probes server/discover (the SDK falls back to initialize on the
 * same connection when the answer says "legacy" or a stdio probe stays silent for probeSecs); when the probe
 * attempt fails for a non-auth reason before any initialize was sent — typically a stdio child that exits on
 * the unknown request — it retries once on a fresh transport with the legacy handshake. Everything runs inside
 * the setupSecs deadline; each attempt inside its own connectSecs deadline.
 */
export async function establish(input: SetupInput): Promise<Established> {
  const { config } = input;
  const t = config.timeouts;
  const started = Date.now();
  const setupMs = t.setupSecs * 1000;
  const remaining = (): number => setupMs - (Date.now() - started);
  const run = (plan: Plan): Promise<Established> =>
    config.transport.type === 'stdio'
      ? attempt(plan, input, remaining())
      : withHttpRetries(() => attempt(plan, input, remaining()), input, remaining);

  if (input.prior && config.lifecycle !== 'initialize' && !(config.lifecycle === 'discover' && input.prior.kind === 'legacy')) {
    input.log(
      'lifecycle',
      'info',
      input.prior.kind === 'modern'
        ? 'Using the cached server/discover result'
        : 'Using the cached verdict: legacy server, skipping the probe',
    );
    try {
      return await run({ kind: 'prior', prior: input.prior });
    } catch (err) {
      const failure = unwrap(err);
      if (TERMINAL.has(failure.error.code) || remaining() <= 0) throw failure.error;
      if (failure.error.code === 'timeout' && failure.error.evidence?.timeout?.name === 'setupSecs') throw failure.error;
      const launch = launchFailedError(failure.error, input);
      if (launch) throw launch;
      input.log('lifecycle', 'warning', `The cached discovery result did not work (${failure.error.message}); negotiating again`);
      input.onPriorFailed?.();
    }
  }

  if (config.lifecycle === 'initialize') return run({ kind: 'legacy' }).catch((err: unknown) => Promise.reject(unwrap(err).error));
  if (config.lifecycle === 'discover') return run({ kind: 'pin' }).catch((err: unknown) => Promise.reject(unwrap(err).error));

  try {
    return await run({ kind: 'auto' });
  } catch (err) {
    const failure = unwrap(err);
    if (failure.sentInitialize || TERMINAL.has(failure.error.code) || remaining() <= 0) throw failure.error;
    if (failure.error.evidence?.timeout?.name === 'setupSecs') throw failure.error;
    const launch = launchFailedError(failure.error, input);
    if (launch) throw launch;
    input.log(
      'lifecycle',
      'info',
      `The server/discover probe failed (${failure.error.message}); falling back to initialize on a fresh transport`,
    );
    return run({ kind: 'legacy' }).catch((e: unknown) => Promise.reject(unwrap(e).error));
  }
}

/**
 * A stdio process whose launch failed (see transports/launch-failure.ts) could not have been refusing the probe:
 * starting it again would fail the same way, so the error says why it was not retried.
 */
function launchFailedError(error: AppError, input: SetupInput): AppError | undefined {
  const reason = error.evidence?.launchFailed;
  if (reason === undefined) return undefined;
  input.log('lifecycle', 'info', `Not starting the server a second time: ${reason}`);
  return new AppError(error.code, `${error.message.replace(/\.?$/, '.')} Not started a second time: ${reason}.`, {
    ...(error.serverId !== undefined ? { serverId: error.serverId } : {}),
    ...(error.evidence !== undefined ? { evidence: error.evidence } : {}),
    cause: error,
  });
}

/** Delays before the at most two retries of an HTTP handshake after a transient failure (seed 000). */
export const HTTP_HANDSHAKE_RETRY_DELAYS_MS = [250, 1000] as const;

/** A failure worth retrying over HTTP: the server could not be reached, or answered 429/502/503/504. */
function isTransientHttp(error: AppError): boolean {
  if (error.code === 'connect_failed') return true;
  const status = error.evidence?.httpStatus;
  return error.code === 'http_error' && (status === 429 || status === 502 || status === 503 || status === 504);
}

/** Runs an HTTP lifecycle attempt with up to two retries on transient failures, inside the setup deadline. */
async function withHttpRetries(run: () => Promise<Established>, input: SetupInput, remaining: () => number): Promise<Established> {
  for (let i = 0; ; i++) {
    try {
      return await run();
    } catch (err) {
      const failure = unwrap(err);
      const delay = HTTP_HANDSHAKE_RETRY_DELAYS_MS[i];
      if (delay === undefined || !isTransientHttp(failure.error) || input.signal.aborted || remaining() <= delay) throw failure;
      input.log('lifecycle', 'warning', `${failure.error.message} Retrying in ${delay} ms.`);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

function unwrap(err: unknown): AttemptFailure {
  if (err instanceof AttemptFailure) return err;
  const error =
    err instanceof AppError ? err : new AppError('internal', err instanceof Error ? err.message : 'unknown error', { cause: err });
  return new AttemptFailure(error, false);
}

/** Tracks which lifecycle message went out last, for phases in evidence and lifecycle log lines. */
interface PhaseTracker {
  phase: ConnectPhase;
  sentInitialize: boolean;
  discoverSentAt?: number;
}

/** Watches the lifecycle messages going out, in the transport's `phases` slot (see transports/pipeline.ts). */
function trackPhases(transport: Transport, tracker: PhaseTracker, input: SetupInput, plan: Plan): void {
  LiveTaps.of(transport).outgoing('phases', (message) => {
    if ('method' in message && 'id' in message) {
      if (message.method === 'server/discover') {
        if (tracker.phase !== 'verify') tracker.phase = 'probe';
        tracker.discoverSentAt = Date.now();
        if (plan.kind !== 'prior') input.log('lifecycle', 'info', 'Probing server/discover');
      } else if (message.method === 'initialize') {
        if (tracker.discoverSentAt !== undefined) input.log('lifecycle', 'info', 'Falling back to initialize');
        else input.log('lifecycle', 'info', 'Sending initialize');
        tracker.phase = 'handshake';
        tracker.sentInitialize = true;
      }
    }
    return undefined;
  });
}

async function attempt(plan: Plan, input: SetupInput, remainingMs: number): Promise<Established> {
  const { config } = input;
  const t = config.timeouts;
  const connectMs = t.connectSecs * 1000;
  const bySetup = remainingMs < connectMs;
  const limitMs = Math.max(0, Math.min(connectMs, remainingMs));
  const mode = plan.kind === 'pin' ? 'discover' : plan.kind === 'legacy' ? 'initialize' : plan.kind === 'auto' ? 'auto' : config.lifecycle;
  const tracker: PhaseTracker = { phase: config.transport.type === 'stdio' ? 'spawn' : 'setup', sentInitialize: false };
  let opened: OpenedTransport | undefined;
  let client: Client | undefined;

  try {
    return await withDeadline(
      async (signal) => {
        opened = input.factory({
          config,
          env: input.env,
          ...(input.loginPath !== undefined ? { loginPath: input.loginPath } : {}),
          log: input.log,
          // Every message passes the ingress stages (nesting bound, notification budget) before anything else sees it.
          // An absent resultType on a 2026-07-28 connection reads as "complete" (after the bound, before the SDK).
          ingress: [
            depthStage((level, text) => input.log('protocol', level, text)),
            resultTypeStage(
              () => client?.getProtocolEra() === 'modern',
              (level, text) => input.log('protocol', level, text),
            ),
            ...(input.ingress ?? []),
          ],
        });
        trackPhases(opened.transport, tracker, input, plan);
        const probe = { timeoutMs: t.probeSecs * 1000 };
        client = new Client(input.clientInfo, {
          // Roots, sampling and logging control are deliberately not advertised (seed 000 scope).
          capabilities: {},
          ...(plan.kind === 'auto' ? { versionNegotiation: { mode: 'auto' as const, probe } } : {}),
          ...(plan.kind === 'pin' ? { versionNegotiation: { mode: { pin: MODERN_PROTOCOL_VERSION }, probe } } : {}),
          ...(input.onListChanged ? { listChanged: listChangedHandlers(input.onListChanged) } : {}),
          ...(input.responseCacheStore ? { responseCacheStore: input.responseCacheStore } : {}),
        });
        if (input.prepareClient) {
          try {
            input.prepareClient(client);
          } catch (error) {
            input.log('lifecycle', 'warning', `A client hook failed: ${error instanceof Error ? error.message : String(error)}`);
          }
        }
        client.onerror = (error) => {
          if (!alreadyLogged(error)) input.log('protocol', 'warning', error.message);
        };
        await client.connect(opened.transport, { timeout: limitMs, signal, ...(plan.kind === 'prior' ? { prior: plan.prior } : {}) });
        if (plan.kind === 'prior' && plan.prior.kind === 'modern') {
          // A stale modern verdict would only fail at the first real request: check it now, cheaply.
          tracker.phase = 'verify';
          await client.discover({ timeout: Math.min(limitMs, t.probeSecs * 1000), signal });
        }
        const protocolVersion = client.getNegotiatedProtocolVersion() ?? 'unknown';
        const era = client.getProtocolEra();
        const discover = client.getDiscoverResult();
        const lifecycle = era === 'modern' ? 'discover' : 'initialize';
        const verdict: PriorDiscovery | undefined =
          era === 'modern' && discover ? { kind: 'modern', discover } : config.lifecycle === 'auto' ? { kind: 'legacy' } : undefined;
        return { client, opened, protocolVersion, lifecycle, ...(discover ? { discover } : {}), ...(verdict ? { verdict } : {}) };
      },
      {
        ms: limitMs,
        onTimeout: () =>
          bySetup
            ? timeoutError(config, 'setupSecs', t.setupSecs, tracker.phase)
            : timeoutError(config, 'connectSecs', t.connectSecs, tracker.phase),
        onAbort: () => cancelledError(config.id),
      },
      input.signal,
    );
  } catch (err) {
    const c = client as Client | undefined;
    const o = opened as OpenedTransport | undefined;
    // Exit facts count only when the process ended on its own, before we released it.
    const before = o?.diagnostics.evidence();
    await c?.close().catch(() => undefined);
    await o?.release().catch(() => undefined);
    const evidence = o ? ownEvidence(before ?? {}, o.diagnostics.evidence()) : undefined;
    let cause: unknown = err;
    // On stdio the SDK turns a silent probe into a "legacy" verdict; in pin mode that surfaces as a negotiation
    // failure. When the probe simply got no answer within probeSecs, say so.
    if (
      mode === 'discover' &&
      tracker.phase === 'probe' &&
      tracker.discoverSentAt !== undefined &&
      Date.now() - tracker.discoverSentAt >= t.probeSecs * 1000 - 50 &&
      !(err instanceof AppError)
    ) {
      cause = timeoutError(config, 'probeSecs', t.probeSecs, 'probe');
    }
    const error = diagnose(cause, { config, phase: tracker.phase, mode, ...(evidence ? { transportEvidence: evidence } : {}) });
    input.log('lifecycle', error.code === 'cancelled' || error.code === 'shutting_down' ? 'info' : 'error', error.message);
    throw new AttemptFailure(error, tracker.sentInitialize);
  }
}

/** Transport evidence after release, minus the exit code or signal our own release caused. */
function ownEvidence(before: ErrorEvidence, after: ErrorEvidence): ErrorEvidence {
  const merged: ErrorEvidence = { ...after };
  if (before.exitCode === undefined && before.signal === undefined) {
    delete merged.exitCode;
    delete merged.signal;
    delete merged.launchFailed;
  }
  return merged;
}

/** Transport errors the transport has already written to the log itself. */
export function alreadyLogged(error: Error): boolean {
  return error instanceof AppError && error.code === 'process_exited';
}

/**
 * Change handlers that only signal (consumers re-list themselves); the SDK wires them for both eras. On a
 * negotiated modern connect the SDK also auto-opens a change stream, which the session's ChangeStream adopts.
 */
function listChangedHandlers(signal: (kind: 'tools' | 'prompts' | 'resources') => void): ListChangedHandlers {
  const one = (kind: 'tools' | 'prompts' | 'resources') => ({ autoRefresh: false, debounceMs: 0, onChanged: () => signal(kind) });
  return { tools: one('tools'), prompts: one('prompts'), resources: one('resources') };
}
