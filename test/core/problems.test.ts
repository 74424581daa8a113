// One voice for failures: every report is logged with its server, and the person gets a notice at once when it
// affects them or once the same problem keeps happening; listener exceptions of the push bus are reports too.
import { describe, expect, it } from 'vitest';
import type { AppNotice } from '../../shared/contract.js';
import { EventBus } from '../../electron/core/event-bus.js';
import { PERSISTS_AFTER, ProblemReporter } from '../../electron/core/problems.js';
import { SessionEvents } from '../../electron/core/sessions/session-events.js';

function reporter() {
  const lines: string[] = [];
  const notices: AppNotice[] = [];
  const r = new ProblemReporter({ log: (level, scope, text) => lines.push(`${level} ${scope}: ${text}`), notify: (n) => notices.push(n) });
  return { r, lines, notices };
}

describe('ProblemReporter', () => {
  it('logs every report with its server and notifies at once when the person is affected', () => {
    const { r, lines, notices } = reporter();
    r.report({ id: 'resource-subscription-lost', serverId: 'fs', message: 'lost it', notify: true });
    expect(lines).toEqual(['warn server fs: lost it']);
    expect(notices).toEqual([{ id: 'resource-subscription-lost:fs', level: 'warning', message: 'lost it' }]);
  });

  it('raises a notice once a quiet problem persists, and counts afresh once resolved', () => {
    const { r, lines, notices } = reporter();
    for (let i = 1; i < PERSISTS_AFTER; i++) r.report({ id: 'events-storage', message: `failed ${i}` });
    expect(notices).toEqual([]);
    r.report({ id: 'events-storage', message: 'failed again', level: 'error' });
    expect(notices).toEqual([{ id: 'events-storage', level: 'error', message: 'failed again' }]);
    expect(lines).toHaveLength(PERSISTS_AFTER);
    r.resolved('events-storage');
    r.report({ id: 'events-storage', message: 'once more' });
    expect(notices).toHaveLength(1);
  });

  it('survives a sink that throws', () => {
    const r = new ProblemReporter({
      log: () => {
        throw new Error('disk full');
      },
      notify: () => {
        throw new Error('no bus');
      },
    });
    expect(() => r.report({ id: 'x', message: 'm', notify: true })).not.toThrow();
  });
});

describe('listener exceptions', () => {
  it('reach the bus owner while the other listeners still get the event', () => {
    const heard: string[] = [];
    const bus = new EventBus((event, err) => heard.push(`${event}: ${(err as Error).message}`));
    const got: string[] = [];
    bus.subscribe(() => {
      throw new Error('broken bridge');
    });
    bus.subscribe((event) => got.push(event));
    bus.emit('servers.changed', { servers: [] });
    expect(heard).toEqual(['servers.changed: broken bridge']);
    expect(got).toEqual(['servers.changed']);
    const sessionHeard: string[] = [];
    const sessions = new SessionEvents((event, err) => sessionHeard.push(`${event.type} ${event.id}: ${(err as Error).message}`));
    sessions.subscribe(() => {
      throw new Error('bad consumer');
    });
    sessions.emit({ type: 'closed', id: 'fs' });
    expect(sessionHeard).toEqual(['closed fs: bad consumer']);
  });
});
