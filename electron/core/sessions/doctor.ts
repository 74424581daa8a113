// The connection doctor: turns whatever a failed connect threw into an AppError with plain words and evidence
// (exit code and stderr tail, HTTP status and URL, which timeout fired in which phase, protocol mismatch,
// command not found with the searched PATH).
import { InsufficientScopeError, SdkError, SdkErrorCode, SdkHttpError, SseError, UnauthorizedError } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/config.js';
import { AppError, type ErrorCode, type ErrorEvidence } from '../../../shared/errors.js';
import { sanitizeText, truncate } from '../text.js';

/** Connection phases named in evidence. */
export type ConnectPhase = 'setup' | 'spawn' | 'probe' | 'handshake' | 'verify' | 'session';

/** Plain words for each phase. */
const PHASE_WORDS: Record<ConnectPhase, string> = {
  setup: 'while setting up the connection',
  spawn: 'while starting the server',
  probe: 'during the server/discover probe',
  handshake: 'during the initialize handshake',
  verify: 'while checking the cached discovery result',
  session: 'after it was connected',
};

/** Which timeout setting governs what, in plain words. */
const TIMEOUT_WORDS: Record<string, string> = {
  setupSecs: 'connection setup',
  connectSecs: 'one connection attempt',
  probeSecs: 'the server/discover probe',
  listSecs: 'listing',
  requestSecs: 'one request',
};

/** Facts the doctor combines with the thrown value. */
export interface DoctorContext {
  /** The server's definition. */
  config: ServerConfig;
  /** Phase in which the failure happened. */
  phase: ConnectPhase;
  /** What the transport knows (exit code, stderr tail, HTTP status...). */
  transportEvidence?: ErrorEvidence;
  /** Lifecycle mode of the attempt that failed. */
  mode: 'auto' | 'discover' | 'initialize';
}

/** The error message's last-stderr suffix. */
function stderrSuffix(evidence: ErrorEvidence): string {
  const tail = (evidence.stderrTail ?? []).filter((l) => l.trim() !== '');
  if (tail.length === 0) return '';
  return ` Last stderr: ${truncate(tail.slice(-3).join(' | '), 400)}`;
}

function exitWords(evidence: ErrorEvidence): string | undefined {
  if (evidence.signal) return `was killed by ${evidence.signal}`;
  if (evidence.exitCode !== undefined && evidence.exitCode !== null) return `exited with code ${evidence.exitCode}`;
  return undefined;
}

function httpStatusOf(err: unknown): number | undefined {
  if (err instanceof SdkHttpError) return err.status;
  if (err instanceof UnauthorizedError) return 401;
  if (err instanceof SseError && typeof err.code === 'number') return err.code;
  if (err instanceof SdkError && typeof err.data === 'object' && err.data !== null) {
    const status = (err.data as { status?: unknown }).status;
    if (typeof status === 'number') return status;
  }
  return undefined;
}

/** True when the thrown value means the server wants (new) credentials: never retried as a lifecycle problem. */
export function isAuthFailure(err: unknown): boolean {
  if (err instanceof AppError) return err.code === 'auth_required';
  if (err instanceof UnauthorizedError || err instanceof InsufficientScopeError) return true;
  if (err instanceof Error && err.name === 'UnauthorizedError') return true;
  if (err instanceof SdkError && (err.code === SdkErrorCode.ClientHttpAuthentication || err.code === SdkErrorCode.ClientHttpForbidden))
    return true;
  const status = httpStatusOf(err);
  return status === 401 || status === 403;
}

function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  return typeof err === 'string' ? err : 'unknown error';
}

/** Explains a connect failure as an AppError with evidence. */
export function diagnose(err: unknown, ctx: DoctorContext): AppError {
  const serverId = ctx.config.id;
  const t = ctx.config.transport;
  const base: ErrorEvidence = { ...(ctx.transportEvidence ?? {}) };
  if (t.type !== 'stdio') base.url = t.url;
  const where = PHASE_WORDS[ctx.phase];
  const make = (code: ErrorCode, message: string, extra: ErrorEvidence = {}): AppError =>
    new AppError(code, sanitizeText(message), { serverId, evidence: { ...base, phase: ctx.phase, ...extra }, cause: err });

  if (err instanceof AppError) {
    const evidence: ErrorEvidence = { ...base, ...(err.evidence ?? {}), phase: err.evidence?.phase ?? ctx.phase };
    if (err.code === 'timeout' || err.code === 'cancelled' || err.code === 'shutting_down' || err.code === 'auth_required') {
      return new AppError(err.code, err.message, { serverId, evidence, cause: err });
    }
    if (err.code === 'command_not_found') {
      const dirs = evidence.searchedPath ?? [];
      const message =
        dirs.length > 0
          ? `${err.message}. Searched PATH: ${dirs.join(t.type === 'stdio' && process.platform === 'win32' ? ';' : ':')}`
          : err.message;
      return new AppError(err.code, message, { serverId, evidence, cause: err });
    }
    if (err.code === 'process_exited' || err.code === 'connection_closed') {
      const how = exitWords(evidence);
      if (how)
        return new AppError('process_exited', `The server process ${how} ${where}.${stderrSuffix(evidence)}`, {
          serverId,
          evidence,
          cause: err,
        });
      return new AppError(err.code, `${err.message} (${where}).${stderrSuffix(evidence)}`, { serverId, evidence, cause: err });
    }
    return new AppError(err.code, `${err.message}${stderrSuffix(evidence)}`, { serverId, evidence, cause: err });
  }

  if (isAuthFailure(err)) {
    const status = httpStatusOf(err) ?? 401;
    return make(
      'auth_required',
      `The server at ${t.type === 'stdio' ? t.command : t.url} requires authorization (HTTP ${status}). Sign in to continue.`,
      {
        httpStatus: status,
      },
    );
  }

  const status = httpStatusOf(err);
  if (err instanceof SdkError && err.code === SdkErrorCode.EraNegotiationFailed && ctx.mode === 'discover' && status === undefined) {
    return make(
      'protocol_mismatch',
      `The server does not speak protocol 2026-07-28 (lifecycle "discover" requires it): ${messageOf(err)}. It is probably an older server; set the lifecycle to "auto" or "initialize".`,
    );
  }
  if (err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout) {
    const name = ctx.phase === 'probe' ? 'probeSecs' : 'connectSecs';
    const seconds = name === 'probeSecs' ? ctx.config.timeouts.probeSecs : ctx.config.timeouts.connectSecs;
    return make('timeout', `No answer within ${seconds} s (${TIMEOUT_WORDS[name]}) ${where}.`, { timeout: { name, seconds } });
  }
  if (/protocol version is not supported/i.test(messageOf(err))) {
    return make('protocol_mismatch', `The server offered a protocol version Switchboard does not support: ${messageOf(err)}`);
  }
  if (
    err instanceof SdkError &&
    (err.code === SdkErrorCode.ConnectionClosed || err.code === SdkErrorCode.NotConnected || err.code === SdkErrorCode.SendFailed)
  ) {
    const how = exitWords(base);
    if (how) return make('process_exited', `The server process ${how} ${where}.${stderrSuffix(base)}`);
    return make('connection_closed', `The connection closed ${where}.${stderrSuffix(base)}`);
  }
  if (status !== undefined) {
    return make('http_error', `The server answered HTTP ${status} ${where} (${t.type === 'stdio' ? '' : t.url}).`, { httpStatus: status });
  }
  if (err instanceof SdkError && err.code === SdkErrorCode.EraNegotiationFailed) {
    const how = exitWords(base);
    if (how) return make('process_exited', `The server process ${how} ${where}.${stderrSuffix(base)}`);
    return make('connect_failed', `${messageOf(err)}.${stderrSuffix(base)}`);
  }
  const how = exitWords(base);
  if (how) return make('process_exited', `The server process ${how} ${where}.${stderrSuffix(base)}`);
  const cause = err instanceof Error && err.cause instanceof Error ? ` (${err.cause.message})` : '';
  if (t.type !== 'stdio' && err instanceof TypeError) {
    return make('connect_failed', `Could not reach ${t.url}: ${messageOf(err)}${cause}`);
  }
  return make('connect_failed', `Could not connect ${where}: ${messageOf(err)}${cause}.${stderrSuffix(base)}`);
}

/** Timeout error for a deadline this module's callers enforce themselves. */
export function timeoutError(
  config: ServerConfig,
  name: keyof typeof TIMEOUT_WORDS,
  seconds: number,
  phase: ConnectPhase,
  evidence?: ErrorEvidence,
): AppError {
  return new AppError(
    'timeout',
    `No answer within ${seconds} s (${TIMEOUT_WORDS[name]}) ${PHASE_WORDS[phase]}.${evidence ? stderrSuffix(evidence) : ''}`,
    {
      serverId: config.id,
      evidence: {
        ...(evidence ?? {}),
        ...(config.transport.type !== 'stdio' ? { url: config.transport.url } : {}),
        phase,
        timeout: { name, seconds },
      },
    },
  );
}
