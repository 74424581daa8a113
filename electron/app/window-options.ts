// The desktop window's options, in one place a test can import without Electron: the page runs isolated from the
// preload (contextIsolation), in Chromium's OS sandbox, with the same-origin policy on, no Node in the page and no
// <webview>. The preload is the only bridge, and it exposes exactly the typed contract.
import type { BrowserWindowConstructorOptions } from 'electron';

/** Options of Switchboard's main window; `preload` is the path of the built preload script. */
export function mainWindowOptions(preload: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 820,
    title: 'Switchboard',
    show: false,
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    },
  };
}
