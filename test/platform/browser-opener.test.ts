// The safe opener: hostile authorization URLs are refused before the injected opener runs; nothing is spawned.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkAuthorizationUrl } from '../../electron/core/auth/safe-url.js';
import { createBrowserOpener, createPrintingOpener } from '../../electron/platform/browser-opener.js';

const dir = mkdtempSync(join(tmpdir(), 'sb-opener-'));
const marker = join(dir, 'marker');

const hostile = [
  'javascript:alert(1)',
  'data:text/html,x',
  'file:///etc/passwd',
  `https://a$(touch ${marker}).example`,
  'https://a$(touch marker).example',
  'http://evil.example/authorize',
  'https://as.example/authorize\r\nX-Injected: 1',
  'https://as.example/author\nize',
  'https://user:pass@as.example/authorize',
  'https://as.example/authorize?x=`touch marker`\u0000',
];

describe('safe browser opener', () => {
  it.each(hostile)('refuses %j without calling the opener', async (raw) => {
    const calls: string[] = [];
    const opener = createBrowserOpener(async (url) => {
      calls.push(url);
    });
    expect(() => checkAuthorizationUrl(raw)).toThrow(expect.objectContaining({ code: 'url_refused' }));
    // Even if a URL object slipped through, the opener re-checks.
    let url: URL | undefined;
    try {
      url = new URL(raw);
    } catch {
      url = undefined;
    }
    // new URL() silently drops CR/LF and escapes NUL; the core also checks the raw endpoint string (see auth tests).
    if (url !== undefined && url.href === raw) await expect(opener.open(url)).rejects.toMatchObject({ code: 'url_refused' });
    expect(calls).toEqual([]);
    expect(existsSync(marker)).toBe(false);
    expect(existsSync('marker')).toBe(false);
  });

  it('the refusal message never repeats the raw URL', () => {
    try {
      checkAuthorizationUrl('javascript:alert(document.cookie)');
    } catch (err) {
      expect((err as Error).message).not.toContain('document.cookie');
    }
  });

  it('opens https and loopback http through the injected function only', async () => {
    const calls: string[] = [];
    const opener = createBrowserOpener(async (url) => {
      calls.push(url);
    });
    await opener.open(new URL('https://as.example/authorize?state=x&resource=https%3A%2F%2Fmcp.example%2Fmcp'));
    await opener.open(new URL('http://127.0.0.1:8080/authorize'));
    expect(calls).toEqual([
      'https://as.example/authorize?state=x&resource=https%3A%2F%2Fmcp.example%2Fmcp',
      'http://127.0.0.1:8080/authorize',
    ]);
  });

  it('headless: prints the URL instead of opening anything', async () => {
    const lines: string[] = [];
    const opener = createPrintingOpener((line) => lines.push(line));
    await opener.open(new URL('https://as.example/authorize?x=1'));
    expect(opener.kind).toBe('print');
    expect(lines).toEqual(['Open this address in a browser to sign in: https://as.example/authorize?x=1']);
    await expect(opener.open(new URL('javascript:alert(1)'))).rejects.toMatchObject({ code: 'url_refused' });
    expect(lines).toHaveLength(1);
  });
});
