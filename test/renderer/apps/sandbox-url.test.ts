// The sandbox page is loaded under the other loopback name than the renderer's (another site, another process).
import { describe, expect, it } from 'vitest';
import { sandboxSrc } from '../../../renderer/src/apps/sandbox-url';

describe('sandboxSrc', () => {
  it('swaps to the other loopback name and names the renderer origin in the fragment', () => {
    expect(sandboxSrc('http://127.0.0.1:5000/proxy.html?launch=a', { hostname: '127.0.0.1', origin: 'http://127.0.0.1:4000' })).toBe(
      'http://localhost:5000/proxy.html?launch=a#host=http%3A%2F%2F127.0.0.1%3A4000',
    );
    expect(sandboxSrc('http://localhost:5000/proxy.html?launch=a', { hostname: 'localhost', origin: 'http://localhost:4000' })).toBe(
      'http://127.0.0.1:5000/proxy.html?launch=a#host=http%3A%2F%2Flocalhost%3A4000',
    );
  });

  it('keeps a URL already on another site, and the desktop scheme', () => {
    expect(sandboxSrc('http://127.0.0.1:5000/proxy.html?launch=a', { hostname: 'localhost', origin: 'http://localhost:4000' })).toMatch(
      /^http:\/\/127\.0\.0\.1:5000\//,
    );
    expect(sandboxSrc('app-sandbox://apps/proxy.html?launch=a', { hostname: 'switchboard', origin: 'app://switchboard' })).toBe(
      'app-sandbox://apps/proxy.html?launch=a#host=app%3A%2F%2Fswitchboard',
    );
  });
});
