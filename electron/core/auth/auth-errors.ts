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

/** Plain-words error without secrets or raw bodies from the server. */
export function describeAuthError(id: string, err: unknown): AppError {
  if (err instanceof AppError) return err;
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
