// The gateway's stdio entry for other apps, as the desktop app writes it: the app's own executable with one flag
// (a packaged build has RunAsNode off and its script inside app.asar), the AppImage file rather than its mount
// path, and the app folder as argument when Electron runs unpackaged.
import { describe, expect, it } from 'vitest';
import { appGatewayLauncher, GATEWAY_STDIO_FLAG, gatewayStdioArgs } from '../../electron/app/gateway-launcher.js';

const base = { execPath: '/opt/Switchboard/switchboard', appPath: '/opt/Switchboard/resources/app.asar', env: {} };

describe('gateway launcher of the desktop app', () => {
  it('runs the packaged executable with the flag and no ELECTRON_RUN_AS_NODE', () => {
    const l = appGatewayLauncher({ ...base, isPackaged: true, platform: 'darwin' });
    expect(l).toEqual({ command: '/opt/Switchboard/switchboard', args: [GATEWAY_STDIO_FLAG] });
    expect(l.env).toBeUndefined();
  });

  it('names the AppImage file, not the executable on its per-run mount', () => {
    const l = appGatewayLauncher({
      ...base,
      execPath: '/tmp/.mount_SwitchXYZ/switchboard',
      env: { APPIMAGE: '/home/me/Apps/Switchboard.AppImage' },
      isPackaged: true,
      platform: 'linux',
    });
    expect(l.command).toBe('/home/me/Apps/Switchboard.AppImage');
    expect(l.args).toEqual([GATEWAY_STDIO_FLAG]);
  });

  it('passes the app folder to an unpackaged Electron', () => {
    const l = appGatewayLauncher({
      ...base,
      execPath: '/repo/node_modules/electron/dist/electron',
      appPath: '/repo',
      isPackaged: false,
      platform: 'linux',
    });
    expect(l).toEqual({ command: '/repo/node_modules/electron/dist/electron', args: ['/repo', GATEWAY_STDIO_FLAG] });
  });

  it('reads the entry point arguments after the flag, and nothing for a normal launch', () => {
    expect(gatewayStdioArgs(['/opt/x', GATEWAY_STDIO_FLAG, '--client', 'Claude', '--data-dir', '/d'])).toEqual([
      '--client',
      'Claude',
      '--data-dir',
      '/d',
    ]);
    expect(gatewayStdioArgs(['/repo/electron', '/repo', GATEWAY_STDIO_FLAG, '--client', 'c'])).toEqual(['--client', 'c']);
    expect(gatewayStdioArgs(['/opt/x', 'switchboard://install?x=1'])).toBeUndefined();
  });
});
