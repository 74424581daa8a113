// Authorization errors: the step-tagged error, the "authorization needed" test and plain-words descriptions.
import { InsufficientScopeError, OAuthError, SdkError, SdkErrorCode, UnauthorizedError } from '@modelcontextprotocol/client';
import type { AuthStep } from '../../../shared/domains/auth.js';
import { AppError } from '../../../shared/errors.js';
import { plainText } from './callback.js';

/** An error that knows in which step of the flow it happened. */
export class StepError extends AppError {
  constructor(
    readonly step: AuthStep,
    error: AppError,
  ) {
    super(error.code, error.message, { ...(error.serverId !== undefined ? { serverId: error.serverId } : {}) });
  }
}

/** True for every way the SDK or the sessions say "authorization needed". */
export function isAuthProblem(err: unknown): boolean {
  if (err instanceof AppError) return err.code === 'auth_required' || err.code === 'authorization_required';
  if (err instanceof UnauthorizedError || err instanceof InsufficientScopeError) return true;
  if (err instanceof SdkError) return err.code === SdkErrorCode.ClientHttpAuthentication || err.code === SdkErrorCode.ClientHttpForbidden;
  return false;
}

/** One schema issue as the SDK's validator reports it. */
interface SchemaIssue {
  path?: unknown;
  message?: unknown;
}

function issueLine(issue: SchemaIssue): string {
  const path = Array.isArray(issue.path) ? issue.path.map((p) => plainText(String(p), 40)).join('.') : '';
  const message = typeof issue.message === 'string' ? plainText(issue.message, 120) : 'is not valid';
  return path ? `${path}: ${message}` : message;
}

/**
 * The SDK validates metadata and token responses with a schema library whose errors carry the issues as a JSON array
 * (on `issues`, or printed into the message after a prefix such as "Invalid token response: "). Returns a plain
 * sentence naming at most three fields, or null when the error is not such a failure.
 */
export function schemaFailureText(err: unknown): string | null {
  let issues: unknown;
  let prefix = '';
  if (typeof err === 'object' && err !== null && Array.isArray((err as { issues?: unknown }).issues)) {
    issues = (err as { issues: unknown[] }).issues;
  } else if (err instanceof Error) {
    const at = err.message.indexOf('[');
    if (at < 0) return null;
    try {
      issues = JSON.parse(err.message.slice(at));
    } catch {
      return null;
    }
    prefix = err.message.slice(0, at).replace(/[:\s]+$/, '');
  }
  if (!Array.isArray(issues) || issues.length === 0 || !issues.every((i) => typeof i === 'object' && i !== null)) return null;
  const lines = (issues as SchemaIssue[]).slice(0, 3).map(issueLine);
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : '';
  const what = /token/i.test(prefix) ? 'token response' : 'metadata';
  return `The authorization server's ${what} is not valid: ${lines.join('; ')}${more}`;
}

/** Plain-words error without secrets or raw bodies from the server. */
export function describeAuthError(id: string, err: unknown): AppError {
  if (err instanceof AppError) return err;
  const schema = schemaFailureText(err);
  if (schema !== null) return new AppError('auth_required', schema, { serverId: id });
  if (err instanceof OAuthError) {
    const description = err.message && err.message !== err.code ? `: ${plainText(err.message.replace(/Raw body:[\s\S]*$/, ''), 200)}` : '';
    return new AppError('auth_required', `The authorization server answered ${plainText(String(err.code), 60)}${description}`, {
      serverId: id,
    });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new AppError('auth_required', plainText(message.replace(/Raw body:[\s\S]*$/, ''), 300) || 'Authorization failed', {
    serverId: id,
  });
}
