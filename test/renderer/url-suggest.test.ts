// A scheme-less server address gets http:// on loopback and https:// elsewhere.
import { describe, expect, it } from 'vitest';
import { suggestUrl } from '../../renderer/src/lib/url-suggest';

describe('suggestUrl', () => {
  it('suggests https for other hosts and http for this computer', () => {
    expect(suggestUrl('api.example.com/mcp')).toBe('https://api.example.com/mcp');
    expect(suggestUrl('mcp.example.com:8443')).toBe('https://mcp.example.com:8443');
    expect(suggestUrl('localhost:3000/mcp')).toBe('http://localhost:3000/mcp');
    expect(suggestUrl('127.0.0.1:8080/mcp')).toBe('http://127.0.0.1:8080/mcp');
    expect(suggestUrl('[::1]:9000/sse')).toBe('http://[::1]:9000/sse');
    expect(suggestUrl('  //example.org/mcp ')).toBe('https://example.org/mcp');
  });

  it('suggests nothing when a scheme is there or the text is no address', () => {
    expect(suggestUrl('https://example.com/mcp')).toBeNull();
    expect(suggestUrl('http://127.0.0.1:3000')).toBeNull();
    expect(suggestUrl('')).toBeNull();
    expect(suggestUrl('not an address')).toBeNull();
    expect(suggestUrl('javascript:alert(1)')).toBeNull();
    expect(suggestUrl('mailto:ada@example.com')).toBeNull();
    expect(suggestUrl('user:pass@example.com')).toBeNull();
  });
});
