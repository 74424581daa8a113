// The receiver-published well-known document, one of the sketch's endpoint-verification paths: the callback URL's
// origin serves `/.well-known/mcp-webhook-receiver.json` listing the path prefixes that accept MCP webhook deliveries,
// and a server may take a callback URL covered by it as verified without a challenge POST. Switchboard lists only
// the exact paths of its own active webhook subscriptions at that origin (the narrowest consent that covers them);
// a relay or tunnel in front of Switchboard serves it from whatever answers that origin.

/** Where the document lives on the callback URL's origin. */
export const RECEIVER_DOCUMENT_PATH = '/.well-known/mcp-webhook-receiver.json';
/** Most paths listed (a document is fetched per subscribe by the server, so it stays small). */
const MAX_RECEIVERS = 256;

/** The receiver document's body. */
export interface ReceiverDocument {
  /** Path prefixes under the origin that accept deliveries. */
  receivers: string[];
}

/** The document for `origin`: the paths of the callback URLs at that origin (invalid URLs and other origins left out). */
export function receiverDocument(origin: string, callbackUrls: readonly string[]): ReceiverDocument {
  let want: string;
  try {
    want = new URL(origin).origin;
  } catch {
    return { receivers: [] };
  }
  const paths = new Set<string>();
  for (const raw of callbackUrls) {
    try {
      const url = new URL(raw);
      if (url.origin === want) paths.add(url.pathname);
    } catch {
      // A stored URL that no longer parses covers nothing.
    }
    if (paths.size >= MAX_RECEIVERS) break;
  }
  return { receivers: [...paths].sort() };
}
