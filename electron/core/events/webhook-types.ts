// The shapes a webhook delivery has between whatever received it (a relay, a test's loopback receiver) and the
// verifier that stores it, in one module so the relay reader and the subscription manager share them.

/** Largest webhook delivery body accepted (bytes): the event limit plus room for the envelope. */
export const MAX_WEBHOOK_BODY = 256 * 1024 + 16 * 1024;

/** The reply a webhook receiver sends back. */
export interface WebhookReply {
  /** HTTP status. */
  status: number;
  /** JSON body (a verification echo), when any. */
  body?: Record<string, unknown>;
  /** Why it was refused (for the receiver's log; never sent to the server). */
  reason?: string;
}

/** A delivery as the receiver got it. */
export interface WebhookDelivery {
  /** Request headers (lower-case names). */
  headers: Record<string, string | string[] | undefined>;
  /** The raw body bytes. */
  body: Uint8Array;
}
