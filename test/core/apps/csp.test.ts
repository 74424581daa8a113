// The app policy from _meta.ui.csp: each declared domain checked as an origin; nothing declared, nothing external.
import { describe, expect, it } from 'vitest';
import { buildCspPolicy, checkOrigin, MAX_CSP_ENTRIES, parseCsp } from '../../../electron/core/apps/csp.js';

describe('checkOrigin', () => {
  it.each([
    ['https://api.example.com', 'https://api.example.com'],
    ['HTTPS://CDN.Example.com/', 'https://cdn.example.com'],
    ['wss://rt.example.com:8443', 'wss://rt.example.com:8443'],
    ['https://*.cdn.example.com', 'https://*.cdn.example.com'],
    ['http://127.0.0.1:4000', 'http://127.0.0.1:4000'],
    ['http://localhost:5173', 'http://localhost:5173'],
    ['ws://[::1]:9000', 'ws://[::1]:9000'],
  ])('accepts %s', (value, origin) => {
    expect(checkOrigin(value)).toEqual({ origin });
  });

  it.each([
    ['http://api.example.com', /only https/],
    ['ws://rt.example.com', /only https/],
    ['https://example.com/path', /not an origin/],
    ['https://example.com?x=1', /not an origin/],
    ['https://user@example.com', /not an origin/],
    ['*', /not an origin/],
    ["'unsafe-eval'", /not an origin/],
    ['data:', /not an origin/],
    ['blob:', /not an origin/],
    ['https://*.com', /too broad/],
    ['https://*.127.0.0.1', /wildcard needs a domain/],
    ['https://a.example.com; script-src *', /not an origin/],
    ['https://exa mple.com', /not an origin/],
    ['https://-bad-.example.com', /not a valid host/],
    ['https://999.1.1.1', /not a valid address/],
    ['https://example.com:99999', /not a valid port/],
    ['javascript://example.com', /not an origin/],
    [42, /not text/],
  ])('refuses %s', (value, reason) => {
    const checked = checkOrigin(value);
    expect('reason' in checked && checked.reason).toMatch(reason);
  });
});

describe('parseCsp', () => {
  it('keeps checked origins per list and reports every refusal', () => {
    const { csp, refused } = parseCsp({
      connectDomains: ['https://api.example.com', 'http://evil.example.com', 'https://api.example.com'],
      resourceDomains: ['https://cdn.example.com', '*'],
      frameDomains: 'https://www.youtube.com',
      unknownList: ['https://x.example.com'],
    });
    expect(csp).toEqual({
      connectDomains: ['https://api.example.com'],
      resourceDomains: ['https://cdn.example.com'],
      frameDomains: [],
      baseUriDomains: [],
    });
    expect(refused.map((r) => [r.list, r.value])).toEqual([
      ['connectDomains', 'http://evil.example.com'],
      ['resourceDomains', '*'],
      ['frameDomains', 'https://www.youtube.com'],
    ]);
  });

  it(`keeps at most ${MAX_CSP_ENTRIES} entries per list`, () => {
    const many = Array.from({ length: MAX_CSP_ENTRIES + 3 }, (_, i) => `https://h${i}.example.com`);
    const { csp, refused } = parseCsp({ resourceDomains: many });
    expect(csp.resourceDomains).toHaveLength(MAX_CSP_ENTRIES);
    expect(refused).toHaveLength(3);
  });

  it('treats a CSP that is not an object as nothing declared', () => {
    const { csp, refused } = parseCsp('connect-src *');
    expect(Object.values(csp).flat()).toEqual([]);
    expect(refused).toHaveLength(1);
  });
});

describe('buildCspPolicy', () => {
  const none = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };

  it('allows nothing external by default', () => {
    const policy = buildCspPolicy(none);
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("connect-src 'none'");
    expect(policy).toContain("frame-src 'none'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("form-action 'none'");
    expect(policy).toMatch(/script-src 'self' 'unsafe-inline'(;|$)/);
    expect(policy).not.toContain('unsafe-eval');
    expect(policy).not.toMatch(/https?:/);
  });

  it('adds declared origins to the matching directives only', () => {
    const policy = buildCspPolicy({
      connectDomains: ['https://api.example.com'],
      resourceDomains: ['https://cdn.example.com'],
      frameDomains: ['https://www.youtube.com'],
      baseUriDomains: [],
    });
    const directive = (name: string) => policy.split('; ').find((d) => d.startsWith(`${name} `));
    expect(directive('connect-src')).toBe('connect-src https://api.example.com');
    expect(directive('script-src')).toContain('https://cdn.example.com');
    expect(directive('img-src')).toContain('https://cdn.example.com');
    expect(directive('connect-src')).not.toContain('cdn');
    expect(directive('frame-src')).toBe('frame-src https://www.youtube.com');
  });
});
