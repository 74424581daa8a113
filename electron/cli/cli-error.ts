// The command's one failure type: what to print and which exit code it means.
import type { AppErrorData, ErrorCode } from '../../shared/errors.js';
import { EXIT, exitFor, type ExitCode } from './exit-codes.js';

/** A failure that ends the command with `exitCode`; `code` is the core's error code when the core raised it. */
export class CliError extends Error {
  readonly exitCode: ExitCode;
  readonly code: ErrorCode | 'usage';
  /** Extra fields for `--json` output (e.g. the pending sign-in). */
  readonly details: Record<string, unknown> | undefined;

  constructor(exitCode: ExitCode, code: ErrorCode | 'usage', message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
    this.code = code;
    this.details = details;
  }

  /** A usage error (bad flag, argument or file). */
  static usage(message: string): CliError {
    return new CliError(EXIT.usage, 'usage', message);
  }

  /** A core error as data, classed by its code. */
  static fromCore(error: AppErrorData): CliError {
    return new CliError(exitFor(error.code), error.code, error.message);
  }
}
