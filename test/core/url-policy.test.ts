// The one URL policy (issue 17 item 4) and the terminal escaping helper: what a server may make the app open, show
// or print.
import { describe, expect, it } from 'vitest';
import { escapeControl } from '../../electron/core/text.js';
import { checkExternalUrl } from '../../electron/core/url-policy.js';

describe('checkExternalUrl', () => {
  const refused: [string, string][] = [
    ['ESC/OSC sequence', 'https://example.com/\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007'],
    ['CSI sequence', 'https://example.com/\u001b[2J'],
    ['bidi override', 'https://example.com/\u202egnp.exe'],
    ['bidi isolate', 'https://exa\u2066mple.com/'],
    ['zero-width space', 'https://ex\u200bample.com/'],
    ['BOM', '\ufeffhttps://example.com/'],
    ['line break', 'https://example.com/a\nb'],
    ['space', 'https://example.com/a b'],
    ['NUL', 'https://example.com/\u0000'],
    ['user info', 'https://user:pass@example.com/'],
    ['user name only', 'https://bank.example@evil.example/'],
    ['plain http elsewhere', 'http://example.com/'],
    ['javascript', 'javascript:alert(1)'],
    ['data', 'data:text/html,<script>alert(1)</script>'],
    ['file', 'file:///etc/passwd'],
    ['not a URL', 'not a url'],
    ['too long', `https://example.com/${'a'.repeat(20_000)}`],
  ];
  it.each(refused)('refuses %s, without repeating the input', (_what, raw) => {
    const verdict = checkExternalUrl(raw, 'The link');
    expect(verdict.ok).toBe(false);
    if (verdict.ok) return;
    expect(verdict.code).toBe('url_refused');
    expect(verdict.reason).toMatch(/^The link /);
    expect(verdict.reason).not.toContain('evil');
    expect(verdict.reason).not.toMatch(/[\u0000-\u001f\u202e]/);
  });

  it('accepts https as it is, with no warnings', () => {
    expect(checkExternalUrl('https://example.com/path?q=1#f')).toEqual({
      ok: true,
      url: 'https://example.com/path?q=1#f',
      display: 'https://example.com/path?q=1#f',
      host: 'example.com',
      warnings: [],
    });
  });

  it('accepts plain http only to this machine, with a warning', () => {
    const verdict = checkExternalUrl('http://127.0.0.1:8080/cb');
    expect(verdict).toMatchObject({ ok: true, url: 'http://127.0.0.1:8080/cb', warnings: [expect.stringMatching(/plain http/)] });
    expect(checkExternalUrl('http://localhost/x').ok).toBe(true);
  });

  it('shows a punycode host decoded, with a warning, and opens the ASCII form', () => {
    const verdict = checkExternalUrl('https://xn--pple-43d.com/login');
    expect(verdict).toMatchObject({
      ok: true,
      url: 'https://xn--pple-43d.com/login',
      display: 'https://аpple.com/login',
      host: 'аpple.com',
    });
    if (!verdict.ok) return;
    expect(verdict.warnings.join(' ')).toMatch(/internationalized.*аpple\.com.*xn--pple-43d\.com/);
    // A Unicode host typed directly is normalized to punycode the same way.
    expect(checkExternalUrl('https://аpple.com/')).toMatchObject({ ok: true, url: 'https://xn--pple-43d.com/' });
  });
});

describe('escapeControl', () => {
  it('turns every control, bidi and invisible character into a visible escape', () => {
    expect(escapeControl('a\u001b]0;pwned\u0007b\u001b[2Jc')).toBe('a\\x1b]0;pwned\\x07b\\x1b[2Jc');
    expect(escapeControl('line1\nline2\r\tend')).toBe('line1\\nline2\\r\\tend');
    expect(escapeControl('file\u202egnp.exe \u2066x\u2069 \u200b \ufeff \u009b')).toBe(
      'file\\u202egnp.exe \\u2066x\\u2069 \\u200b \\ufeff \\x9b',
    );
    expect(escapeControl('plain text, ünïcode and emoji 🙂')).toBe('plain text, ünïcode and emoji 🙂');
  });
});
