// The app policy from _meta.ui.csp: each declared domain checked as an origin; nothing declared, nothing external.
import { describe, expect, it } from 'vitest';
import { buildCspPolicy, checkOrigin, MAX_CSP_ENTRIES, parseCsp, restrictCsp } from '../../../electron/core/apps/csp.js';
import { serverOnThisMachine } from '../../../electron/core/net/server-location.js';

describe('checkOrigin', () => {
  it.each([
    ['https://api.example.com', 'https://api.example.com'],
    ['HTTPS://CDN.Example.com/', 'https://cdn.example.com'],
    ['wss://rt.example.com:8443', 'wss://rt.example.com:8443'],
    ['https://*.cdn.example.com', 'https://*.cdn.example.com'],
    ['https://*.example.co.uk', 'https://*.example.co.uk'],
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
    ['https://*.co.uk', /too broad: co\.uk is a public suffix/],
    ['https://*.github.io', /too broad: github\.io is a public suffix/],
    ['wss://*.com.au', /too broad/],
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

describe('restrictCsp', () => {
  const declared = (origins: string[]) => parseCsp({ connectDomains: origins });
  const LOOPBACK = ['http://127.0.0.1:4000', 'ws://localhost:5173', 'http://app.localhost:8080', 'ws://[::1]:9000', 'https://127.1.2.3'];

  it('refuses addresses on this computer from a server that does not run on it, and reports each', () => {
    const { csp, refused } = restrictCsp(declared([...LOOPBACK, 'https://0.0.0.0:8443', 'https://api.example.com']), {
      server: 'public',
      reservedPorts: [],
    });
    expect(csp.connectDomains).toEqual(['https://api.example.com']);
    expect(refused.map((r) => r.value)).toEqual([...LOOPBACK, 'https://0.0.0.0:8443']);
    for (const r of refused)
      expect(r).toMatchObject({ list: 'connectDomains', reason: expect.stringMatching(/only for a server that runs on this computer/) });
  });

  it('keeps them for a server on this computer, except Switchboard’s own ports (default ports included)', () => {
    const { csp, refused } = restrictCsp(declared([...LOOPBACK, 'http://localhost', 'https://api.example.com:4000']), {
      server: 'loopback',
      reservedPorts: [4000, 9000, 80],
    });
    expect(csp.connectDomains).toEqual([
      'ws://localhost:5173',
      'http://app.localhost:8080',
      'https://127.1.2.3',
      'https://api.example.com:4000',
    ]);
    expect(refused).toEqual([
      { list: 'connectDomains', value: 'http://127.0.0.1:4000', reason: "port 4000 on this computer is Switchboard's own" },
      { list: 'connectDomains', value: 'ws://[::1]:9000', reason: "port 9000 on this computer is Switchboard's own" },
      { list: 'connectDomains', value: 'http://localhost', reason: "port 80 on this computer is Switchboard's own" },
    ]);
  });

  it('refuses private-network addresses from a server on the internet; keeps them for one on a private network or here', () => {
    const PRIVATE = ['https://192.168.1.1', 'wss://10.0.0.1:8443', 'https://printer.local', 'https://[fd00::1]:8080'];
    const fromPublic = restrictCsp(declared([...PRIVATE, 'https://api.example.com']), { server: 'public', reservedPorts: [] });
    expect(fromPublic.csp.connectDomains).toEqual(['https://api.example.com']);
    expect(fromPublic.refused.map((r) => r.value).sort()).toEqual([...PRIVATE].sort());
    for (const r of fromPublic.refused) expect(r.reason).toMatch(/private network is allowed only for a server on a private network/);
    for (const server of ['private', 'loopback'] as const) {
      const kept = restrictCsp(declared(PRIVATE), { server, reservedPorts: [443, 8080] });
      expect([...kept.csp.connectDomains].sort()).toEqual([...PRIVATE].sort());
      expect(kept.refused).toEqual([]);
    }
    // This computer stays this computer's: a server on a private network may not point its app here.
    const here = restrictCsp(declared(['http://127.0.0.1:3000']), { server: 'private', reservedPorts: [] });
    expect(here.refused[0]?.reason).toMatch(/only for a server that runs on this computer/);
  });

  it('keeps the syntax refusals it was given', () => {
    const { refused } = restrictCsp(declared(['https://*.com']), { server: 'loopback', reservedPorts: [] });
    expect(refused).toEqual([expect.objectContaining({ value: 'https://*.com', reason: expect.stringMatching(/too broad/) })]);
  });
});

describe('serverOnThisMachine', () => {
  it.each([
    [{ type: 'stdio' as const, command: 'node', args: [] }, true],
    [{ type: 'http' as const, url: 'http://127.0.0.1:3000/mcp' }, true],
    [{ type: 'http' as const, url: 'http://localhost:3000/mcp' }, true],
    [{ type: 'sse' as const, url: 'http://[::1]:3000/sse' }, true],
    [{ type: 'http' as const, url: 'https://mcp.example.com/mcp' }, false],
    [{ type: 'http' as const, url: 'http://192.168.1.20:3000/mcp' }, false],
  ])('%o: %s', (transport, local) => {
    expect(serverOnThisMachine(transport as Parameters<typeof serverOnThisMachine>[0])).toBe(local);
  });
});
