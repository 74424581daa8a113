// The Inspector's log: responses carry their request's method, refusals and log lines are summarized, payloads are
// bounded and made inert, and the log keeps only the newest entries.
import { describe, expect, it } from 'vitest';
import { SANDBOX_REFUSED_METHOD } from '../../../shared/domains/app-sandbox';
import { MAX_ENTRIES, MAX_TEXT, MessageLog } from '../../../renderer/src/apps/message-log';

describe('MessageLog', () => {
  it('labels responses and errors with the method of the request they answer, per direction', () => {
    const log = new MessageLog();
    log.add('in', { jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: {} });
    log.add('out', { jsonrpc: '2.0', id: 1, method: 'ui/resource-teardown', params: {} });
    log.add('out', { jsonrpc: '2.0', id: 1, result: {} });
    log.add('in', { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'no' } });
    expect(log.entries().map((e) => [e.direction, e.method, e.kind])).toEqual([
      ['in', 'ui/initialize', 'request'],
      ['out', 'ui/resource-teardown', 'request'],
      ['out', 'ui/initialize', 'response'],
      ['in', 'ui/resource-teardown', 'error'],
    ]);
  });

  it('summarizes log lines and turns only the sandbox proxy’s reserved report into a refusal', () => {
    const log = new MessageLog();
    log.add('in', {
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'info', logger: 'app', data: 'top.document: BLOCKED' },
    });
    // An app can post a log line that names the sandbox as its logger: it stays an ordinary message of the app.
    const forged = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'warning', logger: 'sandbox', data: 'Dropped x' } };
    expect(log.sandboxReport(forged)).toBe(false);
    log.add('in', forged);
    expect(log.sandboxReport({ jsonrpc: '2.0', method: SANDBOX_REFUSED_METHOD, params: { reason: 'Dropped y' } })).toBe(true);
    log.refused('A message sent around the sandbox proxy was not accepted', { method: 'tools/call' });
    const entries = log.entries();
    expect(entries).toHaveLength(4);
    const [line, appLine, proxyRefusal, around] = entries;
    expect(line).toMatchObject({ kind: 'notification', summary: 'info: top.document: BLOCKED' });
    expect(appLine).toMatchObject({ direction: 'in', kind: 'notification', summary: 'warning: Dropped x' });
    expect(proxyRefusal).toMatchObject({ direction: 'refused', summary: 'Sandbox proxy: Dropped y' });
    expect(around).toMatchObject({ direction: 'refused', summary: 'A message sent around the sandbox proxy was not accepted' });
    expect(entries.filter((e) => e.direction === 'refused')).toHaveLength(2);
  });

  it('measures sizes, bounds payloads and makes control and bidi characters visible', () => {
    const log = new MessageLog();
    log.add('out', { jsonrpc: '2.0', method: 'ui/notifications/sandbox-resource-ready', params: { html: 'x'.repeat(MAX_TEXT * 2) } });
    log.add('in', { jsonrpc: '2.0', method: 'evil\u202Emethod\u0007', params: { text: 'a\u202Eb' } });
    const [big, evil] = log.entries();
    expect(big!.bytes).toBeGreaterThan(MAX_TEXT * 2);
    expect(big!.text.length).toBeLessThan(MAX_TEXT + 100);
    expect(big!.text).toMatch(/more characters$/);
    expect(evil!.method).toBe('evil\\u{202e}method\\u{7}');
    expect(evil!.text).not.toMatch(/[\u202E\u0007]/);
  });

  it(`keeps the newest ${MAX_ENTRIES} entries and notifies subscribers with a new snapshot`, () => {
    const log = new MessageLog();
    let calls = 0;
    const unsubscribe = log.subscribe(() => calls++);
    const first = log.entries();
    for (let i = 0; i < MAX_ENTRIES + 10; i++) log.add('in', { jsonrpc: '2.0', method: `m${i}` });
    expect(log.entries()).toHaveLength(MAX_ENTRIES);
    expect(log.entries()[0]!.method).toBe('m10');
    expect(log.entries()).not.toBe(first);
    expect(calls).toBe(MAX_ENTRIES + 10);
    unsubscribe();
    log.clear();
    expect(calls).toBe(MAX_ENTRIES + 10);
    expect(log.entries()).toEqual([]);
  });
});
