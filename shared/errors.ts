/**
 * The one closed set of error codes that may cross the renderer/core boundary, for AppErrors and call outcomes alike:
 * each code with what it means. A code not listed here does not compile.
 */
export const ERROR_CODES = {
  invalid_request: "A call's arguments failed its schema, or the call came from somewhere that may not make it.",
  unknown_method: 'The method named is not in the contract.',
  config_invalid: 'A server definition, setting or file the person supplied is not valid.',
  not_found: 'The server, call, client, resource or other thing named does not exist (any more).',
  id_conflict: 'The id or name is already used by another server or gateway client.',
  approval_required: 'A stdio launch (or a changed one) waits for the person to approve it before it is spawned.',
  spawn_failed: "A stdio server's process could not be started.",
  command_not_found: "A stdio server's command was not found on the PATH that was searched.",
  process_exited: "A stdio server's process ended (before or during its session).",
  connection_closed: 'The connection to a server, or to the core, closed.',
  connect_failed: 'A server could not be reached or did not complete the connection.',
  protocol_mismatch: 'The server speaks no protocol revision Switchboard does.',
  http_error: 'A server answered over HTTP with a status or content type Switchboard cannot use.',
  redirect_refused: 'A server answered with a redirect; redirects are refused, the final URL must be configured.',
  url_refused: 'A URL is not allowed by the URL policy (scheme, host, user info, characters).',
  auth_required: 'The server needs a sign-in, or the sign-in failed or was refused.',
  authorization_required: 'A call was refused because the server needs the person to sign in again.',
  timeout: 'A named time limit ran out before the operation finished.',
  cancelled: 'The operation was cancelled by the person, the caller or a shutdown.',
  shutting_down: 'Switchboard is shutting down: it starts no server and takes no new call or connect.',
  limit_exceeded: 'A size, count or rate limit was exceeded.',
  stale_route: 'The catalog changed while a tool was being called; calling again resolves the new route.',
  tool_changed: "A tool's definition changed since it was approved, so it waits for approval again.",
  catalog_invalid: "A server's tool, resource or prompt listing could not be used.",
  skill_unverified: "A skill's files do not match its manifest, or it cannot be bound to one, so it is not used or approved.",
  app_invalid: 'An MCP App resource is not one Switchboard runs (wrong type, too large, refused content).',
  server_error: 'The server answered a request with an error.',
  storage_failed: 'Settings, credentials or history could not be read or written.',
  port_in_use: "The gateway's chosen port is taken by another program.",
  data_locked: 'Another Switchboard is using the data folder.',
  core_restarted: "Switchboard's core stopped while the request was in flight; it was restarted, so try again.",
  core_unavailable: "Switchboard's core is not running: it is starting, or it kept failing and the shell stopped restarting it.",
  internal: 'An unexpected failure inside Switchboard; its details are logged, never sent.',
  tool_error: 'The tool ran and reported an error in its result.',
  denied: "A gateway client's call was refused by its profile or by the person.",
  feature_not_enabled: 'The server asked for something a setting of this server refuses (sampling, roots, questions).',
  elicitation_not_enabled: 'The tool asked the person for input, but questions are turned off for this server.',
  elicitation_unavailable: 'The tool asked the person for input, but there is no way to ask on this connection.',
  elicitation_refused: 'The tool asked the person for input, and the person refused to be asked by this server.',
  sampling_not_enabled: 'The tool asked for sampling, but sampling is turned off for this server.',
  sampling_declined: 'The sampling request was declined or not answered in time.',
  roots_not_enabled: 'The tool asked for the roots list, but roots are turned off for this server.',
  tasks_not_enabled: 'The tool runs only as a task, but tasks are turned off for this server.',
  input_unsupported: 'The tool asked the client for a capability Switchboard does not provide on this connection.',
  input_rounds_exceeded: 'The server asked for input more times than one call allows.',
  task_input_unsupported: 'A task asked for input, which cannot be answered inside a task; the task was cancelled.',
  task_failed: 'The task the tool started failed.',
  task_cancelled: 'The server cancelled the task the tool started.',
  secret_missing: 'A secret this launch needs is no longer stored; enter it again before the launch can be approved.',
  port_blocked: 'The server URL uses a port fetch refuses to connect to (the Fetch standard’s list of bad ports).',
  stale_link: "This browser tab's headless link is from an earlier run of Switchboard; the link changes on every start.",
  entry_deleted: 'The registry entry was deleted by its registry, so it cannot be installed or updated to.',
  relay_not_servable: "A webhook relay server carries Switchboard's own webhooks, so it is never served to gateway clients.",
} as const satisfies Record<string, string>;

/** A code from the closed set ERROR_CODES. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** Every error code, in the order ERROR_CODES lists them. */
export const ERROR_CODE_LIST = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

/** True when a string is one of the closed set's codes. */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.prototype.hasOwnProperty.call(ERROR_CODES, code);
}

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
  /** Secret env variables of an approved launch that are no longer stored (their names only, never values). */
  missingSecrets?: string[];
  /** Why a stdio process that ended cannot have been refusing the probe (its launch failed), so it was not started again. */
  launchFailed?: string;
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

/** True when a value has the shape of AppErrorData, its code one of the closed set. */
export function isAppErrorData(value: unknown): value is AppErrorData {
  return (
    typeof value === 'object' &&
    value !== null &&
    isErrorCode((value as { code?: unknown }).code) &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}
