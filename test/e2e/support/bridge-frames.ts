// The headless bridge's WebSocket frames as the page sent and received them, for checks that a secret never crossed
// to the renderer. Headless only: the Electron window's bridge is IPC, which Playwright cannot watch from the page.
import { expect, type Page } from '@playwright/test';

/**
 * Records the page's bridge frames from now on, in arrival order: received ones, and sent ones too when asked. The
 * page is reloaded so that its WebSocket is watched from the first frame.
 */
export async function recordBridgeFrames(page: Page, opts: { sent?: boolean } = {}): Promise<string[]> {
  const frames: string[] = [];
  const text = (f: { payload: string | Buffer }): string => (typeof f.payload === 'string' ? f.payload : f.payload.toString());
  page.on('websocket', (ws) => {
    ws.on('framereceived', (f) => frames.push(text(f)));
    if (opts.sent) ws.on('framesent', (f) => frames.push(text(f)));
  });
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Views' })).toBeVisible();
  await expect.poll(() => frames.length, { message: 'the bridge carries the page’s first frames' }).toBeGreaterThan(0);
  return frames;
}
