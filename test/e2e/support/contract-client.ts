// A second client of the headless bridge, as another window of the app would be: calls contract methods over the
// same token-protected WebSocket (with the page's Origin), so a test can set up what the UI of another area owns.
import WebSocket from 'ws';
import type { InvokeArgs, InvokeKey, InvokeResult } from '../../../shared/contract';
import type { HeadlessHost } from './headless-host';

/** A connected contract client. */
export interface ContractClient {
  call<K extends InvokeKey>(method: K, args: InvokeArgs<K>): Promise<InvokeResult<K>>;
  close(): void;
}

/** Opens a contract client on a running headless host. */
export function contractClient(host: HeadlessHost): Promise<ContractClient> {
  const origin = `http://127.0.0.1:${host.port}`;
  const socket = new WebSocket(`ws://127.0.0.1:${host.port}/bridge?token=${encodeURIComponent(host.token)}`, { origin });
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let next = 1;
  socket.on('message', (data) => {
    const msg = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message: string } };
    if (typeof msg.id !== 'number') return;
    const p = pending.get(msg.id);
    pending.delete(msg.id);
    if (msg.error) p?.reject(new Error(msg.error.message));
    else p?.resolve(msg.result);
  });
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('open', () =>
      resolve({
        call: (method, args) =>
          new Promise((res, rej) => {
            const id = next++;
            pending.set(id, { resolve: res as (v: unknown) => void, reject: rej });
            socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params: args }));
          }),
        close: () => socket.close(),
      }),
    );
  });
}
