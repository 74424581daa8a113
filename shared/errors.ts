/** Every error code that may cross the renderer/core boundary. */
export type ErrorCode =
  | 'invalid_request'
  | 'unknown_method'
  | 'config_invalid'
  | 'not_found'
  | 'id_conflict'
  | 'approval_required'
  | 'spawn_failed'
  | 'command_not_found'
  | 'process_exited'
  | 'connection_closed'
  | 'connect_failed'
  | 'protocol_mismatch'
  | 'http_error'
  | 'redirect_refused'
  | 'url_refused'
  | 'auth_required'
  | 'authorization_required'
  | 'timeout'
  | 'cancelled'
  | 'limit_exceeded'
  | 'stale_route'
  | 'tool_changed'
  | 'catalog_invalid'
  | 'app_invalid'
  | 'server_error'
  | 'storage_failed'
  | 'port_in_use'
  | 'data_locked'
  | 'internal';

/** Extra facts a failed connection carries so the connection doctor can explain it. */
export interface ErrorEvidence {
  /** Exit code of a stdio child that ended. */
  exitCode?: number | null;
  /** Signal that ended a stdio child. */
  signal?: string | null;
  /** Last lines the child wrote to stderr. */
  stderrTail?: string[];
  /** HTTP status of a refused or failed request. */
  httpStatus?: number;
  /** URL that was contacted. */
  url?: string;
  /** Connection phase in which the failure happened (spawn, probe, handshake, listing, request). */
  phase?: string;
  /** Name of the timeout that fired, with its limit in seconds. */
  timeout?: { name: string; seconds: number };
  /** PATH directories searched for a command that was not found. */
  searchedPath?: string[];
  /** A stdio server closed its output (stdout) while still running: the session was ended and its processes stopped. */
  outputClosed?: boolean;
}

/** An error as data: what crosses IPC or the WebSocket bridge instead of an exception. */
export interface AppErrorData {
  /** Stable machine-readable code. */
  code: ErrorCode;
  /** Plain-words explanation for the user; never contains secrets. */
  message: string;
  /** Server the error concerns, when there is one. */
  serverId?: string;
  /** Diagnostic evidence, when there is some. */
  evidence?: ErrorEvidence;
}

/** Typed error raised inside the core and the renderer; converts to and from AppErrorData. */
export class AppError extends Error {
  /** Stable machine-readable code. */
  readonly code: ErrorCode;
  /** Server the error concerns, when there is one. */
  readonly serverId?: string;
  /** Diagnostic evidence, when there is some. */
  readonly evidence?: ErrorEvidence;

  constructor(code: ErrorCode, message: string, opts: { serverId?: string; evidence?: ErrorEvidence; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'AppError';
    this.code = code;
    if (opts.serverId !== undefined) this.serverId = opts.serverId;
    if (opts.evidence !== undefined) this.evidence = opts.evidence;
  }

  /** The plain-data form that crosses the boundary. */
  toData(): AppErrorData {
    const data: AppErrorData = { code: this.code, message: this.message };
    if (this.serverId !== undefined) data.serverId = this.serverId;
    if (this.evidence !== undefined) data.evidence = this.evidence;
    return data;
  }

  /** Rebuilds an AppError from its data form. */
  static fromData(data: AppErrorData): AppError {
    return new AppError(data.code, data.message, {
      ...(data.serverId !== undefined ? { serverId: data.serverId } : {}),
      ...(data.evidence !== undefined ? { evidence: data.evidence } : {}),
    });
  }
}

/** True when a value has the shape of AppErrorData. */
export function isAppErrorData(value: unknown): value is AppErrorData {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { code?: unknown }).code === 'string' &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}
