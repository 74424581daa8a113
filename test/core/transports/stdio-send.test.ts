// Sends to a server that reads nothing: once the pipe is full every send waits for the same drain (one listener, no
// MaxListeners warning however many calls queue), and all of them end when the server is released.
import { afterEach, expect, it } from 'vitest';
import { StdioTransport } from '../../../electron/core/transports/stdio-transport.js';
import { collectLog, pidGone, REPO_ROOT } from './helpers.js';

let transport: StdioTransport | undefined;
afterEach(async () => {
  await transport?.release();
});

it('queues sends behind one drain while the pipe is full, and ends them all on release', async () => {
  const warnings: Error[] = [];
  const onWarning = (w: Error): void => void warnings.push(w);
  process.on('warning', onWarning);
  try {
    const { log } = collectLog();
    transport = new StdioTransport({
      serverId: 'deaf',
      command: process.execPath,
      args: ['-e', 'setInterval(() => {}, 1000)'],
      cwd: REPO_ROOT,
      env: {},
      inheritEnv: false,
      messageBytes: 1024 * 1024,
      log,
      release: { stdinGraceMs: 100, termGraceMs: 500, killWaitMs: 500 },
    });
    transport.onerror = () => undefined;
    await transport.start();
    const pid = transport.pid!;
    const big = 'x'.repeat(256 * 1024);
    const sends = Array.from({ length: 40 }, (_, i) =>
      transport!.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `${i}${big}` } }).then(
        () => 'sent',
        () => 'failed',
      ),
    );
    await transport.release();
    expect((await Promise.all(sends)).length).toBe(40);
    expect(pidGone(pid)).toBe(true);
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  } finally {
    process.off('warning', onWarning);
  }
});
