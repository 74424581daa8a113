// The desktop window's isolation, asserted on the options the app really creates its window with (main.ts builds
// the window from mainWindowOptions and from nothing else).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mainWindowOptions } from '../../electron/app/window-options.js';

describe('the main window', () => {
  const options = mainWindowOptions('/built/preload.cjs');

  it('is isolated: context isolation, the OS sandbox, web security on, no Node in the page', () => {
    expect(options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      webSecurity: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      allowRunningInsecureContent: false,
      webviewTag: false,
      preload: '/built/preload.cjs',
    });
    // Nothing that would loosen it is set at all.
    for (const key of ['experimentalFeatures', 'enableBlinkFeatures', 'additionalArguments', 'partition'])
      expect(options.webPreferences).not.toHaveProperty(key);
  });

  it('is the window main.ts creates: its one BrowserWindow is built from these options', () => {
    const main = readFileSync(new URL('../../electron/main.ts', import.meta.url), 'utf8');
    const created = [...main.matchAll(/new BrowserWindow\(([^;]*)\)/g)].map((m) => m[1]);
    expect(created).toEqual([`mainWindowOptions(join(here, 'preload.cjs'))`]);
  });
});
