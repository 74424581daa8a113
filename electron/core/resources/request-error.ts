// Maps what an SDK request throws into an AppError the renderer can show.
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { AppError } from '../../../shared/errors.js';
import { sanitizeText, truncate } from '../text.js';

/** Converts a failed request into an AppError (the server's message is untrusted text, kept short). */
export function requestError(err: unknown, serverId: string, what: string, timeoutSecs: number): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof ProtocolError) {
    const msg = truncate(sanitizeText(err.message), 500);
    if (err.code === -32601) return new AppError('server_error', `The server does not support ${what}`, { serverId });
    return new AppError('server_error', `The server refused ${what}: ${msg}`, { serverId });
  }
  if (SdkError.isInstance(err)) {
    const e = err as SdkError;
    if (e.code === SdkErrorCode.RequestTimeout) {
      return new AppError('timeout', `${what} got no answer within ${timeoutSecs} s`, {
        serverId,
        evidence: { timeout: { name: 'requestSecs', seconds: timeoutSecs } },
      });
    }
    if (e.code === SdkErrorCode.ConnectionClosed)
      return new AppError('connection_closed', `The connection closed during ${what}`, { serverId });
    if (e.code === SdkErrorCode.MethodNotSupportedByProtocolVersion) {
      return new AppError('protocol_mismatch', `${what} is not available in this server's protocol version`, { serverId });
    }
    return new AppError('server_error', `${what} failed: ${truncate(sanitizeText(e.message), 500)}`, { serverId });
  }
  if (err instanceof Error && err.message === 'Not connected')
    return new AppError('connection_closed', `The server is not connected`, { serverId });
  return new AppError('server_error', `${what} failed`, { serverId, cause: err });
}
