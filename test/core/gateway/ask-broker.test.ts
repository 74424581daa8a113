// Each gateway client has its own share of the ask queue: one client's flood of waiting asks refuses that client's
// next one (queue_full) and never another client's, and a wait that ends frees its place. A real broker on a real
// event bus and presence (a visible viewer), no window or timer faked.
import { afterEach, describe, expect, it } from 'vitest';
import { AskBroker, MAX_PENDING_ASKS, type AskOutcome } from '../../../electron/core/gateway/ask-broker.js';
import { EventBus } from '../../../electron/core/event-bus.js';
import { Presence } from '../../../electron/core/presence.js';
import type { GatewayRequestView } from '../../../shared/domains/gateway.js';

const aborts: AbortController[] = [];
afterEach(() => aborts.splice(0).forEach((a) => a.abort()));

function view(clientId: string, n: number): Omit<GatewayRequestView, 'requestId'> {
  return {
    clientId,
    clientName: clientId,
    serverId: 'fx',
    serverName: 'Fx',
    tool: 'mcp__fx__write',
    arguments: `{"n":${n}}`,
    argumentsTruncated: false,
    argumentsChars: 8,
    argumentsBytes: 8,
    argumentsHiddenBytes: 0,
    hints: {},
    // Far off: every wait here ends by a decision or an abort, never by its deadline.
    expiresAt: Date.now() + 3_600_000,
  };
}

function ask(broker: AskBroker, clientId: string, n: number): { outcome: Promise<AskOutcome>; abort: AbortController } {
  const abort = new AbortController();
  aborts.push(abort);
  return { outcome: broker.ask(view(clientId, n), abort.signal), abort };
}

describe('the ask queue, per client', () => {
  it("one client's full share refuses its next ask, never another client's", async () => {
    const presence = new Presence();
    presence.set('page', 'visible');
    const broker = new AskBroker(new EventBus(), presence);
    const flood = Array.from({ length: MAX_PENDING_ASKS }, (_, i) => ask(broker, 'flooder', i));
    expect(broker.pending()).toHaveLength(MAX_PENDING_ASKS);

    // The flooder's next ask is refused at once; another client's waits for the person like any.
    expect(await ask(broker, 'flooder', 999).outcome).toEqual({ allowed: false, reason: 'queue_full' });
    const other = ask(broker, 'person-client', 1);
    expect(broker.pending().filter((p) => p.clientId === 'person-client')).toHaveLength(1);
    const otherRequest = broker.pending().find((p) => p.clientId === 'person-client')!;
    broker.decide(otherRequest.requestId, true);
    expect(await other.outcome).toEqual({ allowed: true });

    // One of the flooder's waits ends: its place is free again.
    flood[0]!.abort.abort();
    expect(await flood[0]!.outcome).toEqual({ allowed: false, reason: 'cancelled' });
    const again = ask(broker, 'flooder', 1000);
    expect(broker.pending().filter((p) => p.clientId === 'flooder')).toHaveLength(MAX_PENDING_ASKS);
    again.abort.abort();
    expect(await again.outcome).toEqual({ allowed: false, reason: 'cancelled' });
  });
});
