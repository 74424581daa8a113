// The OTLP/HTTP traces address for a configured endpoint, checked without loading OpenTelemetry: a bad endpoint is
// refused at once, and the exporter is loaded only for a good one.
import { AppError } from '../../../shared/errors.js';

/** The path OTLP/HTTP collectors take traces on. */
export const TRACES_PATH = '/v1/traces';

/** The traces URL for a configured endpoint; a bad one is a typed error that names the problem, not the value. */
export function tracesUrl(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new AppError('invalid_request', 'The OTLP endpoint is not a URL (expected e.g. http://127.0.0.1:4318)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new AppError('invalid_request', `The OTLP endpoint must be http or https, not ${url.protocol.replace(':', '')}`);
  // Credentials in the address would be sent to and logged by every hop; collectors take headers instead.
  if (url.username !== '' || url.password !== '')
    throw new AppError('invalid_request', 'The OTLP endpoint must not carry a user name or password');
  if (url.search !== '' || url.hash !== '') throw new AppError('invalid_request', 'The OTLP endpoint must not carry a query or fragment');
  if (!url.pathname.endsWith(TRACES_PATH)) url.pathname = `${url.pathname.replace(/\/+$/, '')}${TRACES_PATH}`;
  return url.toString();
}
