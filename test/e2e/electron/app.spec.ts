// The real Electron app, where a binary exists (otherwise this reports itself skipped with the reason): a sandboxed
// window from app://switchboard with exactly the contract on window.switchboard and no Node globals; the log path in
// app.info; quitting waits for the core and leaves the data folder unlocked.
import { expect, test } from '@playwright/test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { INVOKE_KEYS } from '../../../shared/contract-schemas';
import { electronSkipReason, launchElectronApp } from '../../../testing/electron-launch';

const skip = electronSkipReason();

test.describe('Electron app', () => {
  test.skip(skip !== null, `SKIPPED: ${skip ?? ''}`);

  test('opens a sandboxed window with exactly the contract bridge, and quits cleanly', async () => {
    const launched = await launchElectronApp();
    try {
      const win = launched.window;
      expect(win.url()).toMatch(/^app:\/\/switchboard\//);
      await expect(win.getByText('Switchboard').first()).toBeVisible();
      const exposed = await win.evaluate(() => {
        const api = (globalThis as unknown as { switchboard: { invoke: Record<string, unknown> } }).switchboard;
        return {
          hasRequire: typeof (globalThis as { require?: unknown }).require,
          hasProcess: typeof (globalThis as { process?: unknown }).process,
          keys: Object.keys(api.invoke).sort(),
        };
      });
      expect(exposed.hasRequire).toBe('undefined');
      expect(exposed.hasProcess).toBe('undefined');
      expect(exposed.keys).toEqual([...INVOKE_KEYS].sort());
      const info = await win.evaluate(async () => {
        const api = (
          globalThis as unknown as {
            switchboard: { invoke: Record<string, (a: unknown) => Promise<{ ok: boolean; value: { logFile: string } }>> };
          }
        ).switchboard;
        return (await api.invoke['app.info']!({})).value;
      });
      expect(info.logFile).toBe(join(launched.dataDir, 'logs', 'switchboard.log'));
    } finally {
      await launched.close();
    }
    expect(existsSync(join(launched.dataDir, 'switchboard.lock'))).toBe(false);
  });
});
