// What an MCP app cannot do to the host through size or side channels: one 20 MiB request is refused to the app
// while the page keeps its bridge connection (headless), and WebRTC sends nothing to a STUN/TURN server of its
// choosing, whatever frame it builds the peer connection in.
import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { expect, test } from './support/fixture';
import { addAppsFixture, appFrame, callFixtureTool, inspectorRows } from './support/apps';

test.describe('app limits', () => {
  test.beforeEach(async ({ switchboard, page }) => {
    await addAppsFixture(switchboard);
    await page.setViewportSize({ width: 1400, height: 900 });
  });

  test('a 20 MiB tools/call is refused to the app; the page stays connected and the app’s next call works', async ({
    switchboard,
    page,
  }) => {
    test.skip(switchboard.shell === 'electron', 'the headless bridge connection');
    const sockets: { url: string; closed: boolean }[] = [];
    page.on('websocket', (ws) => {
      const s = { url: ws.url(), closed: false };
      sockets.push(s);
      ws.on('close', () => (s.closed = true));
    });
    await page.reload();
    await expect(page.getByRole('navigation', { name: 'Views' })).toBeVisible();
    await page.evaluate(() => ((globalThis as unknown as { notReloaded: boolean }).notReloaded = true));
    await callFixtureTool(switchboard, 'attack_flood');
    const log = appFrame(page).locator('#log');
    await expect(log).toContainText('next call: OK (echo: after the flood)', { timeout: 30_000 });
    await expect(log).toContainText("20 MiB call: BLOCKED (limit_exceeded: The app's message is larger than 4.0 MiB");
    expect(await log.textContent()).not.toContain('ESCAPED');
    expect((await inspectorRows(page)).some((r) => r.includes('tools/call was not relayed'))).toBe(true);
    // Same page, same connection: a call of the person's own still works.
    expect(await page.evaluate(() => (globalThis as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    expect(sockets).toHaveLength(1);
    expect(sockets[0]!.closed).toBe(false);
    await expect(page.getByText('connection to Switchboard was lost')).toHaveCount(0);
    await callFixtureTool(switchboard, 'ui_capability');
  });

  test('WebRTC from an app sends no datagram to a STUN/TURN server of its choosing', async ({ switchboard, page }) => {
    const sentinel = createSocket('udp4');
    const datagrams: string[] = [];
    sentinel.on('message', (m) => datagrams.push(m.toString('latin1')));
    await new Promise<void>((r) => sentinel.bind(0, '127.0.0.1', r));
    try {
      const rtcPort = String((sentinel.address() as AddressInfo).port);
      await callFixtureTool(switchboard, 'attack_webrtc', { rtcPort });
      const log = appFrame(page).locator('#log');
      await expect(log).toContainText('done: OK', { timeout: 60_000 });
      const text = (await log.textContent()) ?? '';
      for (const step of [
        'RTCPeerConnection',
        'webkitRTCPeerConnection',
        'srcdoc property',
        'srcdoc attribute',
        'srcdoc in markup',
        'srcdoc attribute node',
      ]) {
        expect(text).toContain(`${step}: BLOCKED (NotAllowedError)`);
      }
      expect(text).not.toContain('ESCAPED');
      // The app has finished every attempt (an attempt that got a connection gathers to the end before it reports).
      expect(datagrams).toEqual([]);
    } finally {
      await new Promise<void>((r) => sentinel.close(() => r()));
    }
  });
});
