// Recognises a DPoP nonce challenge (RFC 9449 §8 at a token endpoint, §9 at a resource server): the server asks
// for a proof carrying the nonce it sends in `DPoP-Nonce`, and the SDK retries once with it. That answer is part of
// the protocol, not a failure, so the guarded fetch logs it as such instead of as an HTTP error.

/** Most of a 400 body read to look for the `use_dpop_nonce` error code (a token error is a few dozen bytes). */
const PEEK_BYTES = 4096;

/** Reads at most `max` bytes of a copy of the body; the response itself stays unread. */
async function peekText(response: Response, max: number): Promise<string> {
  const reader = response.clone().body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < max) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, max));
}

/**
 * Whether the response is a `use_dpop_nonce` challenge: a `DPoP-Nonce` header with a 401 whose WWW-Authenticate
 * names the error, or a 400 whose JSON error code is `use_dpop_nonce`.
 */
export async function isDpopNonceChallenge(response: Response): Promise<boolean> {
  if (!response.headers.get('dpop-nonce')) return false;
  if (response.status === 401) return /\berror\s*=\s*"?use_dpop_nonce\b/i.test(response.headers.get('www-authenticate') ?? '');
  if (response.status !== 400) return false;
  try {
    const body: unknown = JSON.parse(await peekText(response, PEEK_BYTES));
    return typeof body === 'object' && body !== null && (body as { error?: unknown }).error === 'use_dpop_nonce';
  } catch {
    return false;
  }
}
