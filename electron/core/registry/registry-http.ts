// GET requests to a registry: JSON only, redirects followed only within the same origin (never to another host),
// the body capped while it streams (a 50 MiB answer is cut off at the cap, never buffered whole), and a timeout.
import { AppError } from '../../../shared/errors.js';
import { displayUrl } from '../transports/http-guards.js';
import { formatSize } from '../../../shared/format-size.js';

/** Largest registry response read, in bytes. */
export const REGISTRY_MAX_BYTES = 8 * 1024 * 1024;
/** How long one registry request may take. */
export const REGISTRY_TIMEOUT_MS = 15_000;
/** Same-origin redirects followed at most. */
const MAX_REDIRECTS = 3;

/** What a registry request is built with. */
export interface RegistryFetchOptions {
  /** Largest body accepted. */
  maxBytes?: number;
  /** Timeout in ms. */
  timeoutMs?: number;
  /** Cancels the request. */
  signal?: AbortSignal;
  /** Network fetch (tests). */
  fetch?: typeof fetch;
}

/** Why a fetch failed at the network level, in plain words (ECONNREFUSED, ENOTFOUND, ...). */
function networkReason(err: unknown): string {
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  const code = (cause as { code?: unknown } | undefined)?.code;
  if (code === 'ECONNREFUSED') return 'the connection was refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name could not be resolved';
  if (code === 'ECONNRESET') return 'the connection was reset';
  if (code === 'UND_ERR_SOCKET') return 'the connection was closed';
  if (typeof code === 'string') return code;
  return cause instanceof Error ? cause.message : 'the network request failed';
}

/** Fetches `url` and parses its JSON body under the guards. Errors are AppErrors with plain words. */
export async function getRegistryJson(url: string, opts: RegistryFetchOptions = {}): Promise<unknown> {
  const maxBytes = opts.maxBytes ?? REGISTRY_MAX_BYTES;
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? REGISTRY_TIMEOUT_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const doFetch = opts.fetch ?? fetch;
  let target = new URL(url);
  const origin = target.origin;
  for (let hop = 0; ; hop++) {
    const shown = displayUrl(target.href);
    let response: Response;
    try {
      const init: RequestInit = { redirect: 'manual', headers: { accept: 'application/json' }, signal };
      // A kept-alive connection the registry closed meanwhile fails at once: a GET is safe to try once more.
      response = await doFetch(target.href, init).catch((err: unknown) => {
        if (isStaleSocket(err) && !signal.aborted) return doFetch(target.href, init);
        throw err;
      });
    } catch (err) {
      if (timeout.aborted) {
        throw new AppError(
          'timeout',
          `The registry at ${shown} did not answer within ${Math.round((opts.timeoutMs ?? REGISTRY_TIMEOUT_MS) / 1000)} s`,
          {
            evidence: { url: shown },
          },
        );
      }
      if (opts.signal?.aborted) throw new AppError('cancelled', 'The registry request was cancelled');
      throw new AppError('connect_failed', `The registry at ${shown} could not be reached: ${networkReason(err)}`, {
        evidence: { url: shown },
      });
    }
    const status = response.status;
    if (status >= 300 && status < 400) {
      await response.body?.cancel().catch(() => undefined);
      const location = response.headers.get('location');
      const next = location !== null ? safeUrl(location, target.href) : undefined;
      if (next === undefined || next.origin !== origin) {
        const to = next !== undefined ? ` to ${displayUrl(next.href)}` : '';
        throw new AppError('redirect_refused', `The registry redirected${to}; redirects to another host are refused`, {
          evidence: { url: shown, httpStatus: status },
        });
      }
      if (hop >= MAX_REDIRECTS)
        throw new AppError('redirect_refused', `The registry redirected more than ${MAX_REDIRECTS} times`, { evidence: { url: shown } });
      target = next;
      continue;
    }
    if (status < 200 || status > 299) {
      await response.body?.cancel().catch(() => undefined);
      const code = status === 404 ? 'not_found' : 'http_error';
      throw new AppError(code, `The registry answered HTTP ${status} for ${shown}`, { evidence: { url: shown, httpStatus: status } });
    }
    const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    if (type !== '' && type !== 'application/json' && !type.endsWith('+json')) {
      await response.body?.cancel().catch(() => undefined);
      throw new AppError('http_error', `The registry answered with "${type.slice(0, 80)}" instead of JSON`, {
        evidence: { url: shown, httpStatus: status },
      });
    }
    let text: string;
    try {
      text = await readCapped(response, maxBytes, shown);
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (timeout.aborted)
        throw new AppError('timeout', `The registry at ${shown} stopped sending before the answer was complete`, {
          evidence: { url: shown },
        });
      throw new AppError('connect_failed', `Reading the registry's answer from ${shown} failed: ${networkReason(err)}`, {
        evidence: { url: shown },
      });
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new AppError('server_error', `The registry's answer from ${shown} is not valid JSON`, {
        evidence: { url: shown, httpStatus: status },
      });
    }
  }
}

function isStaleSocket(err: unknown): boolean {
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  const code = (cause as { code?: unknown } | undefined)?.code;
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET';
}

function safeUrl(location: string, base: string): URL | undefined {
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

/** Reads the body as text, refusing it as soon as it passes `maxBytes` (declared or streamed). */
async function readCapped(response: Response, maxBytes: number, shown: string): Promise<string> {
  const tooBig = () =>
    new AppError('limit_exceeded', `The registry's answer from ${shown} is larger than ${formatSize(maxBytes)} and was refused`, {
      evidence: { url: shown },
    });
  const declared = Number(response.headers.get('content-length') ?? 'NaN');
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooBig();
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooBig();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
