// How another app starts the gateway's stdio entry point when Switchboard is the desktop app. A packaged build
// cannot run a script with Electron as Node (the RunAsNode fuse is off, so ELECTRON_RUN_AS_NODE is ignored and
// the app itself would start), and its script lies inside app.asar where no Node outside can read it. So the entry
// is the app's own executable with one flag: main sees the flag first and runs the stdio entry point instead of
// the app (no window, no single-instance lock). An AppImage is named by its file (APPIMAGE): the executable inside
// it sits on a mount point that changes every run. On Windows the app cannot be the entry: Electron gives its main
// process there a standard input that is always at its end (a windowed program has no console), so the entry is the
// switchboard-gateway command instead, and the flag is refused with that reason rather than serving nothing.
import type { GatewayLauncher } from '../core/gateway/setup-help.js';

/** The flag that turns the app's executable into the gateway's stdio entry point. */
export const GATEWAY_STDIO_FLAG = '--gateway-stdio';

/** What the launcher is made from (Electron's app and process facts, passed in so tests need no Electron). */
export interface AppFacts {
  isPackaged: boolean;
  execPath: string;
  /** The folder or asar Electron was started on (`app.getAppPath()`): an unpackaged run needs it as argument. */
  appPath: string;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
}

/** Why the app's own executable cannot serve stdio on this platform, or undefined where it can. */
export function gatewayStdioRefusal(platform: NodeJS.Platform): string | undefined {
  return platform === 'win32'
    ? 'On Windows the Switchboard app cannot serve stdio itself (Windows gives a windowed program no standard input). ' +
        'Use the switchboard-gateway command (Node 20 or later) or the HTTP entry.'
    : undefined;
}

/** The command and arguments another app runs to reach this Switchboard's gateway over stdio. */
export function appGatewayLauncher(facts: AppFacts): GatewayLauncher {
  if (gatewayStdioRefusal(facts.platform) !== undefined)
    return {
      command: 'switchboard-gateway',
      args: [],
      note:
        'On Windows the Switchboard app cannot be this entry itself (Windows gives a windowed program no standard input): ' +
        'the entry runs the switchboard-gateway command, which needs Node 20 or later and must be on the PATH of that app. ' +
        'Cursor and VS Code can use the HTTP entry instead.',
    };
  const appImage = facts.platform === 'linux' && facts.isPackaged ? facts.env['APPIMAGE'] : undefined;
  return {
    command: appImage && appImage.length > 0 ? appImage : facts.execPath,
    args: facts.isPackaged ? [GATEWAY_STDIO_FLAG] : [facts.appPath, GATEWAY_STDIO_FLAG],
  };
}

/** The entry point's own arguments when this launch is the gateway's stdio entry point, else undefined. */
export function gatewayStdioArgs(argv: readonly string[]): string[] | undefined {
  const at = argv.indexOf(GATEWAY_STDIO_FLAG);
  return at < 0 ? undefined : argv.slice(at + 1);
}
