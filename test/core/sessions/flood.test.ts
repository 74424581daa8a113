// A server flooding notifications (issue 17 item 5): the excess is dropped and counted per server, the count shows
// in its log ("N notifications dropped from this server") and its status, change signals are coalesced, and the
// server stays usable. (The bridge's round trip during a flood is measured in bench/flood.ts.)
import { describe, expect, it } from 'vitest';
import { SIGNAL_INTERVAL_MS } from '../../../electron/core/ingress/notification-budget.js';
import { addApproved, fixture, stdioServer, until, useSessionHost } from './helpers.js';

const t = useSessionHost();

describe('notification floods', () => {
  it('are dropped and counted, shown in the log and the status; signals are coalesced; calls still work', async () => {
    await addApproved(t.h.host, stdioServer('flood', fixture('hostile-flood.ts'), { lifecycle: 'initialize' }));
    let signals = 0;
    t.h.host.sessionEvents.subscribe((e) => {
      if (e.type === 'toolsListChanged' && e.id === 'flood') signals++;
    });
    const started = Date.now();
    expect((await t.h.sessions.connect('flood')).state).toBe('connected');
    await until(() => (t.h.sessions.status('flood').droppedNotifications ?? 0) > 1000, 30_000, 'dropped notifications in the status');
    expect(t.h.sessions.logs('flood').some((l) => /\d+ notifications dropped from this server/.test(l.text))).toBe(true);

    const outcome = await t.h.host.calls.call({ name: 'mcp__flood__echo', arguments: { text: 'still answering' } });
    expect(outcome.presentation.text).toBe('still answering');
    const stop = await t.h.host.calls.call({ name: 'mcp__flood__stop', arguments: {} });
    const sent = Number(/stopped after (\d+)/.exec(stop.presentation.text)?.[1]);
    const elapsed = Date.now() - started;
    // About a third of the flood were list changes; at most one passes per interval (plus the trailing one).
    expect(sent).toBeGreaterThan(3000);
    expect(signals).toBeLessThanOrEqual(Math.ceil(elapsed / SIGNAL_INTERVAL_MS) + 2);
    // Warnings about progress for unknown tokens are limited too: the log is not buried.
    expect(t.h.sessions.logs('flood').filter((l) => /unknown token/.test(l.text)).length).toBeLessThan(200);
  });
});
