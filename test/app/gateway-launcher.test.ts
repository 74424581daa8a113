// The gateway's stdio entry for other apps, as the desktop app writes it: the app's own executable with one flag
// (a packaged build has RunAsNode off and its script inside app.asar), the AppImage file rather than its mount
// path, and the app folder as argument when Electron runs unpackaged.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appGatewayLauncher, GATEWAY_STDIO_FLAG, gatewayStdioArgs, gatewayStdioRefusal } from '../../electron/app/gateway-launcher.js';
import { call, cleanup, makeHost, tempDir } from '../shared/support/harness.js';
import type { GatewaySetupPreview, GatewayStatus } from '../../shared/domains/gateway.js';

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

  it('on Windows is the switchboard-gateway command, with why, since Electron gives the app there no standard input', async () => {
    const l = appGatewayLauncher({
      ...base,
      execPath: 'C:\\Program Files\\Switchboard\\Switchboard.exe',
      isPackaged: true,
      platform: 'win32',
    });
    expect(l.command).toBe('switchboard-gateway');
    expect(l.args).toEqual([]);
    expect(l.note).toMatch(/Windows/);
    expect(gatewayStdioRefusal('win32')).toMatch(/no standard input/);
    for (const p of ['darwin', 'linux'] as const) expect(gatewayStdioRefusal(p)).toBeUndefined();

    // The note reaches the person with the entry.
    const dir = tempDir('sb-gw-launcher-');
    const h = makeHost(dir, { gatewayLauncher: () => l });
    try {
      await call<GatewayStatus>(h.dispatch, 'gateway.enable', {});
      const { id } = await call<{ id: string }>(h.dispatch, 'gateway.addClient', { name: 'Claude', profile: { mode: 'all' } });
      const preview = await call<GatewaySetupPreview>(h.dispatch, 'gateway.setupPreview', {
        id,
        app: 'claude',
        transport: 'stdio',
        file: join(dir, 'claude_desktop_config.json'),
      });
      expect((JSON.parse(preview.entry) as { switchboard: { command: string } }).switchboard.command).toBe('switchboard-gateway');
      expect(preview.notes).toContain(l.note);
    } finally {
      await h.host.shutdown();
      cleanup(dir);
    }
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
