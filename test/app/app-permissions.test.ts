// MCP App frames in the desktop app get a browser permission only when their launch is open and the person granted
// that very permission to the launch's server; the renderer's own top frame, other addresses, closed launches and
// other permissions are denied. Media is per kind: camera for video, microphone for audio, both when both are asked.
import { describe, expect, it } from 'vitest';
import { appFrameAllowed, appPermissionsFor, launchOfSandboxUrl } from '../../electron/app/app-permissions.js';
import type { AppPermission } from '../../shared/domains/apps.js';

const SANDBOX = 'app-sandbox://apps';
const grants = new Map<string, AppPermission[]>([
  ['L-camera', ['camera']],
  ['L-all', ['camera', 'microphone', 'geolocation', 'clipboardWrite']],
  ['L-none', []],
]);
const grantedTo = (id: string): readonly AppPermission[] | undefined => grants.get(id);
const frame = (launch: string, page = 'app.html'): { isMainFrame: boolean; requestingUrl: string } => ({
  isMainFrame: false,
  requestingUrl: `${SANDBOX}/${page}?launch=${launch}`,
});

describe('app frame permissions (desktop)', () => {
  it('maps browser permissions to the ones a person grants', () => {
    expect(appPermissionsFor('media', { mediaTypes: ['video'] })).toEqual(['camera']);
    expect(appPermissionsFor('media', { mediaTypes: ['video', 'audio'] })).toEqual(['camera', 'microphone']);
    expect(appPermissionsFor('media', { mediaType: 'audio' })).toEqual(['microphone']);
    expect(appPermissionsFor('media', { mediaType: 'unknown' })).toBeUndefined();
    expect(appPermissionsFor('media', {})).toBeUndefined();
    expect(appPermissionsFor('geolocation', {})).toEqual(['geolocation']);
    expect(appPermissionsFor('clipboard-sanitized-write', {})).toEqual(['clipboardWrite']);
    for (const p of ['clipboard-read', 'notifications', 'openExternal', 'fullscreen', 'hid', 'usb', 'serial', 'midi'])
      expect(appPermissionsFor(p, {})).toBeUndefined();
  });

  it('reads the launch from sandbox addresses only', () => {
    expect(launchOfSandboxUrl(`${SANDBOX}/app.html?launch=abc`, SANDBOX)).toBe('abc');
    expect(launchOfSandboxUrl(`${SANDBOX}/sandbox?x=1`, SANDBOX)).toBeUndefined();
    expect(launchOfSandboxUrl('app://switchboard/index.html?launch=abc', SANDBOX)).toBeUndefined();
    expect(launchOfSandboxUrl('app-sandbox://apps.evil/app.html?launch=abc', SANDBOX)).toBeUndefined();
    expect(launchOfSandboxUrl(undefined, SANDBOX)).toBeUndefined();
  });

  it('grants exactly what the launch holds', () => {
    expect(appFrameAllowed('media', { ...frame('L-camera'), mediaTypes: ['video'] }, SANDBOX, grantedTo)).toBe(true);
    // Asking for the microphone too needs both.
    expect(appFrameAllowed('media', { ...frame('L-camera'), mediaTypes: ['video', 'audio'] }, SANDBOX, grantedTo)).toBe(false);
    expect(appFrameAllowed('media', { ...frame('L-all'), mediaTypes: ['video', 'audio'] }, SANDBOX, grantedTo)).toBe(true);
    expect(appFrameAllowed('geolocation', frame('L-camera'), SANDBOX, grantedTo)).toBe(false);
    expect(appFrameAllowed('geolocation', frame('L-all'), SANDBOX, grantedTo)).toBe(true);
    expect(appFrameAllowed('clipboard-sanitized-write', frame('L-none'), SANDBOX, grantedTo)).toBe(false);
    expect(appFrameAllowed('notifications', frame('L-all'), SANDBOX, grantedTo)).toBe(false);
  });

  it('denies a closed launch, the top frame and any other address', () => {
    expect(appFrameAllowed('geolocation', frame('L-gone'), SANDBOX, grantedTo)).toBe(false);
    expect(appFrameAllowed('geolocation', { ...frame('L-all'), isMainFrame: true }, SANDBOX, grantedTo)).toBe(false);
    expect(
      appFrameAllowed('geolocation', { isMainFrame: false, requestingUrl: 'https://evil.example/?launch=L-all' }, SANDBOX, grantedTo),
    ).toBe(false);
    expect(appFrameAllowed('geolocation', { isMainFrame: false }, SANDBOX, grantedTo)).toBe(false);
  });
});
