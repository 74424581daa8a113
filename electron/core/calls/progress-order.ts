// Keeps a request's last progress notification ahead of its response. The SDK client dispatches notifications
// one microtask after reading them but handles a response at once, dropping the request's progress handler; a
// server that reports progress right before answering (0, 50, 100 then the result) thus lost its final update
// most of the time (measured: 15 of 20 calls over stdio), in the UI and for gateway clients alike. Handling
// each response one microtask later restores the wire order. If the SDK ever stops exposing the method, nothing
// is changed (and the conformance progress scenario says so).
import type { Client } from '@modelcontextprotocol/client';

/** Defers the client's response handling by one microtask, behind notifications read before it. */
export function keepProgressBeforeResponse(client: Client): void {
  const target = client as unknown as { _onresponse?: (response: unknown) => void };
  const original = target._onresponse;
  if (typeof original !== 'function') return;
  target._onresponse = (response: unknown) => {
    void Promise.resolve().then(() => original.call(client, response));
  };
}
