// The `switchboard` command's exit codes: one table, so scripts and CI can tell failure classes apart. The README's
// table is this one; a code is never reused for another meaning.
import type { ErrorCode } from '../../shared/errors.js';

/** Every exit code the command uses, with what it means. */
export const EXIT = {
  ok: 0,
  /** `run`: at least one assertion did not hold; `lint`: an error was found. */
  assertionFailed: 1,
  /** Bad flags, arguments, files, or an unknown server or tool. */
  usage: 2,
  /** A server could not be reached, spawned, approved or completed the connection. */
  connection: 3,
  /** A server needs a sign-in (the authorization URL is printed). */
  authorization: 4,
  /** The tool ran and reported an error, or the server answered with an error. */
  toolError: 5,
  /** A time limit ran out (`--timeout`, or the server's own). */
  timeout: 6,
  /** Switchboard itself failed: the data folder is in use by another Switchboard, storage, an internal error. */
  switchboard: 7,
  /** Interrupted (SIGINT, Ctrl-C): the call that was running was cancelled. 128 + the signal, as shells report it. */
  interrupted: 130,
  /** Terminated (SIGTERM): the call that was running was cancelled. */
  terminated: 143,
} as const;

/** One of the codes above. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Plain-words meaning of each code, for `--help` (the README lists the same). */
export const EXIT_TABLE: readonly { code: ExitCode; meaning: string }[] = [
  { code: EXIT.ok, meaning: 'success (for run: every assertion held)' },
  { code: EXIT.assertionFailed, meaning: 'an assertion failed (run), or lint found an error' },
  { code: EXIT.usage, meaning: 'usage error: bad flag, argument or file, unknown server or tool' },
  { code: EXIT.connection, meaning: 'connection failure: spawn, network, handshake, launch not approved' },
  { code: EXIT.authorization, meaning: 'authorization needed: sign in at the printed URL' },
  { code: EXIT.toolError, meaning: 'tool error: the tool or server answered with an error' },
  { code: EXIT.timeout, meaning: 'timeout' },
  { code: EXIT.switchboard, meaning: 'Switchboard failure: data folder in use, storage or internal error' },
  { code: EXIT.interrupted, meaning: 'interrupted (SIGINT): the running call was cancelled' },
  { code: EXIT.terminated, meaning: 'terminated (SIGTERM): the running call was cancelled' },
];

/** Which class a core error code falls in. */
export function exitFor(code: ErrorCode): ExitCode {
  switch (code) {
    case 'invalid_request':
    case 'unknown_method':
    case 'config_invalid':
    case 'not_found':
    case 'id_conflict':
    case 'url_refused':
    case 'limit_exceeded':
      return EXIT.usage;
    case 'approval_required':
    case 'spawn_failed':
    case 'command_not_found':
    case 'process_exited':
    case 'connection_closed':
    case 'connect_failed':
    case 'protocol_mismatch':
    case 'http_error':
    case 'redirect_refused':
    case 'stale_route':
    case 'catalog_invalid':
      return EXIT.connection;
    case 'auth_required':
    case 'authorization_required':
      return EXIT.authorization;
    case 'timeout':
      return EXIT.timeout;
    case 'port_in_use':
    case 'data_locked':
    case 'core_restarted': // the running app's core stopped, restarts or stops under a call made through it
    case 'core_unavailable':
    case 'shutting_down':
    case 'storage_failed':
    case 'internal':
      return EXIT.switchboard;
    default:
      // tool_error, server_error, denied, the input and task failures: the call ran and did not succeed.
      return EXIT.toolError;
  }
}
