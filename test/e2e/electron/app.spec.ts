// Runs the real Electron app when a binary is present; otherwise skips with the reason.
import { _electron as electron, expect, test } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDataDir } from '../support/headless-host';

const root = fileURLToPath(new URL('../../..', import.meta.url));

function electronBinary(): string | null {
  const pathTxt = join(root, 'node_modules/electron/path.txt');
  if (!existsSync(pathTxt)) return null;
  const bin = join(root, 'node_modules/electron/dist', readFileSync(pathTxt, 'utf8').trim());
  return existsSync(bin) ? bin : null;
}

const binary = electronBinary();

test.describe('Electron app', () => {
  test.skip(
    binary === null,
    'SKIPPED: the Electron binary is not installed (ELECTRON_SKIP_BINARY_DOWNLOAD); the headless project covers the same renderer and core.',
  );

  test('opens a sandboxed window with the contract bridge and no Node globals', async () => {
    const app = await electron.launch({ executablePath: binary!, args: [root, `--user-data-dir=${tempDataDir()}`] });
    try {
      const win = await app.firstWindow();
      await expect(win.getByText('Switchboard').first()).toBeVisible();
      const exposed = await win.evaluate(() => ({
        hasRequire: typeof (globalThis as { require?: unknown }).require,
        keys: Object.keys((globalThis as unknown as { switchboard: { invoke: object } }).switchboard.invoke).length,
      }));
      expect(exposed.hasRequire).toBe('undefined');
      expect(exposed.keys).toBeGreaterThan(10);
    } finally {
      await app.close();
    }
  });
});
