// Calls a contract method over the page's own bridge connection (same origin, same token): set-up and checks that
// need no clicking.
import type { Page } from '@playwright/test';

/** The JSON-RPC answer of one contract call. */
export interface BridgeAnswer {
  result?: unknown;
  error?: { message?: string; data?: { code?: string } };
}

/** Invokes `method` with `params` through a second WebSocket of the page. */
export function invoke(page: Page, method: string, params: unknown): Promise<BridgeAnswer> {
  return page.evaluate(
    ({ method, params }) =>
      new Promise<BridgeAnswer>((resolve) => {
        interface Socket {
          send(data: string): void;
          close(): void;
          addEventListener(type: 'open' | 'message', listener: (ev: { data: unknown }) => void): void;
        }
        const w = globalThis as unknown as {
          sessionStorage: { getItem(key: string): string | null };
          location: { host: string };
          WebSocket: new (url: string) => Socket;
        };
        const token = w.sessionStorage.getItem('switchboard.token');
        const ws = new w.WebSocket(`ws://${w.location.host}/bridge?token=${encodeURIComponent(token ?? '')}`);
        ws.addEventListener('open', () => ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })));
        ws.addEventListener('message', (ev) => {
          const msg = JSON.parse(String(ev.data)) as { id?: number };
          if (msg.id === 1) {
            ws.close();
            resolve(msg as BridgeAnswer);
          }
        });
      }),
    { method, params },
  );
}
