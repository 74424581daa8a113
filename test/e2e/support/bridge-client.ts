// A test's own client of the headless bridge (the token and the renderer's Origin, as the renderer itself connects):
// quick set-up of servers without driving dialogs that other specs already cover.
import { WebSocket } from 'ws';
import type { InvokeArgs, InvokeKey, InvokeResult } from '../../../shared/contract';
import type { HeadlessHost } from './headless-host';

/** A contract client over the bridge. */
export interface BridgeClient {
  call<K extends InvokeKey>(method: K, args: InvokeArgs<K>): Promise<InvokeResult<K>>;
  close(): void;
}

/** Connects to the host's bridge as its own renderer would. */
export async function connectBridge(host: HeadlessHost): Promise<BridgeClient> {
  const origin = `http://127.0.0.1:${host.port}`;
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}/bridge?token=${encodeURIComponent(host.token)}`, { headers: { origin } });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let next = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  ws.on('message', (data) => {
    const msg = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message: string } };
    if (typeof msg.id !== 'number') return;
    const p = pending.get(msg.id);
    pending.delete(msg.id);
    if (msg.error) p?.reject(new Error(msg.error.message));
    else p?.resolve(msg.result);
  });
  return {
    call: (method, args) =>
      new Promise((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params: args }));
      }),
    close: () => ws.close(),
  };
}
