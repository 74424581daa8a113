// Where the WebRTC guard goes in an app's document: first, but after a doctype so that the page keeps its mode.
import { describe, expect, it } from 'vitest';
import { WEBRTC_GUARD_SCRIPT, withWebRtcGuard } from '../../../electron/core/apps/webrtc-guard.js';

const tag = `<script>${WEBRTC_GUARD_SCRIPT}</script>`;

describe('withWebRtcGuard', () => {
  it('puts the guard right after the doctype, in any case and with leading space', () => {
    expect(withWebRtcGuard('<!doctype html><p>x')).toBe(`<!doctype html>${tag}<p>x`);
    expect(withWebRtcGuard('\n  <!DOCTYPE HTML>\n<html>')).toBe(`\n  <!DOCTYPE HTML>${tag}\n<html>`);
  });

  it('puts it first when there is no doctype', () => {
    expect(withWebRtcGuard('<p>x</p>')).toBe(`${tag}<p>x</p>`);
  });

  it('is plain script that cannot end its own tag early', () => {
    expect(WEBRTC_GUARD_SCRIPT).not.toMatch(/<\/script/i);
    expect(() => new Function(WEBRTC_GUARD_SCRIPT)).not.toThrow();
  });
});
