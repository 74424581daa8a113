// The servers slice applies pushed events: status changes reach the list and the open page (one copy of the
// status, by server id), logs stay bounded.
import { beforeEach, describe, expect, it } from 'vitest';
import type { LogEntry, ServerStatus, ServerSummary } from '../../shared/contract';
import { resetStore, useStore } from '../../renderer/src/store';
import { selectSelectedDetail, selectSelectedLogs, selectServerList } from '../../renderer/src/store/servers-slice';

const status = (state: ServerStatus['state']): ServerStatus => ({ state, since: 1, failures: 0 });
const summary = (id: string): ServerSummary => ({
  id,
  name: id,
  enabled: true,
  transport: 'stdio',
  target: 'node server.js',
  status: status('disconnected'),
  needsApproval: false,
});
const entry = (seq: number): LogEntry => ({ seq, time: seq, source: 'stderr', level: 'info', text: `line ${seq}` });

beforeEach(() => {
  resetStore();
  useStore.setState({
    serversById: { a: summary('a'), b: summary('b') },
    serverIds: ['a', 'b'],
    selectedId: 'a',
    selectedFacts: null,
    logs: { a: [] },
  });
});

describe('servers slice', () => {
  it('applies a status event to the right row only', () => {
    useStore.getState().applyStatus('b', status('connected'));
    const rows = selectServerList(useStore.getState());
    expect(rows.find((s) => s.id === 'b')?.status.state).toBe('connected');
    expect(rows.find((s) => s.id === 'a')?.status.state).toBe('disconnected');
  });

  it('holds one status per server: the open page and the list read the same one', () => {
    useStore.setState({ selectedFacts: { id: 'a', config: {} as never } });
    useStore.getState().applyStatus('a', status('connecting'));
    const state = useStore.getState();
    expect(selectSelectedDetail(state)?.status.state).toBe('connecting');
    expect(selectServerList(state)[0]?.status).toBe(selectSelectedDetail(state)?.status);
    expect(state.announcement).toMatch(/^a: /);
  });

  it('keeps the newest 1,000 log lines of the open server and ignores servers whose log is not loaded', () => {
    const { applyLog } = useStore.getState();
    for (let i = 1; i <= 1005; i++) applyLog('a', entry(i));
    applyLog('b', entry(1));
    const logs = selectSelectedLogs(useStore.getState());
    expect(logs).toHaveLength(1000);
    expect(logs[0]?.seq).toBe(6);
    expect(logs.at(-1)?.seq).toBe(1005);
    expect(useStore.getState().logs['b']).toBeUndefined();
  });
});
