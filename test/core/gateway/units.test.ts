// The gateway's small parts on their own: tokens, profiles, names and URIs, the session budget, the request
// screen and the bounded event store.
import { describe, expect, it } from 'vitest';
import { ServerConfigSchema } from '../../../shared/config.js';
import {
  bearerOf,
  digestMatches,
  launchToken,
  launchTokenMatches,
  newClientId,
  newClientToken,
  parseBearer,
  tokenDigest,
} from '../../../electron/core/gateway/client-tokens.js';
import { BoundedEventStore, EVENT_STORE_MAX_EVENTS } from '../../../electron/core/gateway/event-store.js';
import { screen } from '../../../electron/core/gateway/http-front.js';
import { parsePromptName, promptCandidates, promptName, unwrapUri, wrapUri } from '../../../electron/core/gateway/namespacing.js';
import { normalizeProfile, ProfileView } from '../../../electron/core/gateway/profile.js';
import { failureMessage, sanitizeJson } from '../../../electron/core/gateway/result-convert.js';
import { SESSION_MAX_BYTES, SESSION_MAX_DEFINITIONS, SessionScope } from '../../../electron/core/gateway/session-scope.js';

const cfg = (id: string) => ServerConfigSchema.parse({ id, name: id, transport: { type: 'stdio', command: 'node' } });
const configs = [cfg('a'), cfg('a__b'), cfg('files')];

describe('client tokens', () => {
  it('are random, carry the client id, and only their digest is kept', () => {
    const id = newClientId();
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    const t1 = newClientToken(id);
    const t2 = newClientToken(id);
    expect(t1).not.toBe(t2);
    expect(parseBearer(t1)).toEqual({ id, launch: false });
    const digest = tokenDigest(t1);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(digest).not.toContain(t1.slice(21));
    expect(digestMatches(tokenDigest(t1), digest)).toBe(true);
    expect(digestMatches(tokenDigest(t2), digest)).toBe(false);
    expect(digestMatches(tokenDigest(t1), undefined)).toBe(false);
    expect(digestMatches(tokenDigest(t1), 'not-hex')).toBe(false);
  });

  it('launch tokens derive from the launch key and fail under another key', () => {
    const id = newClientId();
    const t = launchToken('k'.repeat(43), id);
    expect(parseBearer(t)).toEqual({ id, launch: true });
    expect(launchTokenMatches(t, 'k'.repeat(43), id)).toBe(true);
    expect(launchTokenMatches(t, 'j'.repeat(43), id)).toBe(false);
    expect(launchTokenMatches(t, undefined, id)).toBe(false);
    expect(launchTokenMatches(t, 'k'.repeat(43), newClientId())).toBe(false);
  });

  it('are read from a Bearer Authorization header only', () => {
    expect(bearerOf('Bearer abc')).toBe('abc');
    expect(bearerOf('bearer abc')).toBe('abc');
    expect(bearerOf('Basic abc')).toBeUndefined();
    expect(bearerOf('Bearer a b')).toBeUndefined();
    expect(bearerOf(['Bearer abc'])).toBeUndefined();
    expect(parseBearer('sbg_zz_x')).toBeUndefined();
  });
});

describe('profiles', () => {
  it('normalize, default to asking for writes, and refuse unknown servers', () => {
    expect(normalizeProfile({ mode: 'all', servers: ['files', 'a', 'a'] }, configs)).toEqual({
      mode: 'all',
      servers: ['a', 'files'],
      writes: 'ask',
      names: 'local',
    });
    expect(() => normalizeProfile({ mode: 'all', servers: ['ghost'] }, configs)).toThrow(/No server with id "ghost"/);
    expect(() => normalizeProfile({ mode: 'all', groups: ['mcp:ghost'] }, configs)).toThrow(/ghost/);
  });

  it('original names need mode all and exactly one server', () => {
    expect(normalizeProfile({ mode: 'all', servers: ['files'], names: 'original' }, configs).names).toBe('original');
    expect(() => normalizeProfile({ mode: 'all', names: 'original' }, configs)).toThrow(/exactly one server/);
    expect(() => normalizeProfile({ mode: 'progressive', servers: ['files'], names: 'original' }, configs)).toThrow(/mode "all"/);
  });

  it('see the union of servers and groups, every server when neither is given, and report removed ones', () => {
    expect(new ProfileView({ mode: 'all' }, configs).servers()).toEqual(['a', 'a__b', 'files']);
    const v = new ProfileView({ mode: 'all', servers: ['a'], groups: ['mcp:files', 'mcp:gone'] }, configs);
    expect(v.servers()).toEqual(['a', 'files']);
    expect(v.sees('a__b')).toBe(false);
    expect(v.missing()).toEqual(['gone']);
  });
});

describe('prompt names and resource URIs', () => {
  it('round-trip, the longest server id winning, and nothing outside the visible servers', () => {
    const servers = ['a', 'a__b', 'files'];
    expect(parsePromptName(promptName('a__b', 'review', false), servers, false)).toEqual({ serverId: 'a__b', name: 'review' });
    // Ambiguous: server "a"'s prompt "b__c" or server "a__b"'s prompt "c"; both readings, longest id first.
    expect(promptCandidates(promptName('a', 'b__c', false), servers, false)).toEqual([
      { serverId: 'a__b', name: 'c' },
      { serverId: 'a', name: 'b__c' },
    ]);
    expect(parsePromptName('mcp__ghost__x', servers, false)).toBeUndefined();
    const uri = wrapUri('files', 'file:///tmp/a b?x=1#y', false);
    expect(uri).toBe('switchboard://files/file:///tmp/a b?x=1#y');
    expect(unwrapUri(uri, servers, false)).toEqual({ serverId: 'files', uri: 'file:///tmp/a b?x=1#y' });
    expect(unwrapUri('switchboard://ghost/x://y', servers, false)).toBeUndefined();
    expect(unwrapUri('switchboard://files/', servers, false)).toBeUndefined();
    expect(unwrapUri('file:///x', ['files'], true)).toEqual({ serverId: 'files', uri: 'file:///x' });
  });
});

describe('the session budget', () => {
  it('adds definitions until 128 or 256 KiB and announces each change once', () => {
    const scope = new SessionScope();
    let changes = 0;
    scope.onChange = () => changes++;
    const many = Array.from({ length: 200 }, (_, i) => ({ name: `t${i}`, bytes: 100 }));
    const first = scope.add(many);
    expect(first.added).toHaveLength(SESSION_MAX_DEFINITIONS);
    expect(first.refused).toHaveLength(200 - SESSION_MAX_DEFINITIONS);
    expect(changes).toBe(1);
    scope.clear();
    expect(changes).toBe(2);
    const big = scope.add([
      { name: 'x', bytes: SESSION_MAX_BYTES - 10 },
      { name: 'y', bytes: 11 },
      { name: 'z', bytes: 10 },
    ]);
    expect(big).toEqual({ added: ['x', 'z'], refused: ['y'] });
    expect(scope.usage()).toEqual({ definitions: 2, bytes: SESSION_MAX_BYTES });
  });
});

describe('the request screen', () => {
  const target = { fetch: async () => new Response() };
  const auth = (t: string) => (t === 'good' ? target : undefined);
  const req = (over: { url?: string; method?: string; headers?: Record<string, string> }) => ({
    url: over.url ?? '/mcp',
    method: over.method ?? 'POST',
    headers: { host: '127.0.0.1:5000', authorization: 'Bearer good', ...over.headers },
  });
  it('checks host, origin, path, query, method, token and declared size, in that order', () => {
    expect(screen(req({}), 5000, auth)).toEqual({ target });
    expect(screen(req({ headers: { host: 'localhost:5000', origin: 'http://localhost:5000' } }), 5000, auth)).toEqual({ target });
    expect(screen(req({ headers: { host: 'evil.example' } }), 5000, auth)).toEqual({ refusal: 'bad_host' });
    expect(screen(req({ headers: { host: '127.0.0.1:5001' } }), 5000, auth)).toEqual({ refusal: 'bad_host' });
    expect(screen(req({ headers: { origin: 'http://evil.example' } }), 5000, auth)).toEqual({ refusal: 'bad_origin' });
    expect(screen(req({ headers: { origin: 'null' } }), 5000, auth)).toEqual({ refusal: 'bad_origin' });
    expect(screen(req({ url: '/mcp/' }), 5000, auth)).toEqual({ refusal: 'bad_path' });
    expect(screen(req({ url: '/mcp?token=good' }), 5000, auth)).toEqual({ refusal: 'query' });
    expect(screen(req({ method: 'PUT' }), 5000, auth)).toEqual({ refusal: 'bad_method' });
    expect(screen(req({ headers: { authorization: 'Bearer bad' } }), 5000, auth)).toEqual({ refusal: 'bad_token' });
    expect(screen(req({ headers: { 'content-length': String(9 * 1024 * 1024) } }), 5000, auth)).toEqual({ refusal: 'too_large' });
    const noAuth = req({});
    delete (noAuth.headers as Record<string, string | undefined>).authorization;
    expect(screen(noAuth, 5000, auth)).toEqual({ refusal: 'no_token' });
  });
});

describe('the event store', () => {
  it('replays a stream after an event id and forgets the oldest beyond its bound', async () => {
    const store = new BoundedEventStore();
    const a1 = await store.storeEvent('a', { jsonrpc: '2.0', method: 'm', params: { n: 1 } });
    await store.storeEvent('b', { jsonrpc: '2.0', method: 'm', params: { n: 2 } });
    await store.storeEvent('a', { jsonrpc: '2.0', method: 'm', params: { n: 3 } });
    const sent: unknown[] = [];
    expect(await store.replayEventsAfter(a1, { send: async (_id, m) => void sent.push(m) })).toBe('a');
    expect(sent).toEqual([{ jsonrpc: '2.0', method: 'm', params: { n: 3 } }]);
    for (let i = 0; i < EVENT_STORE_MAX_EVENTS; i++) await store.storeEvent('c', { jsonrpc: '2.0', method: 'm' });
    await expect(store.replayEventsAfter(a1, { send: async () => undefined })).rejects.toThrow(/expired/);
  });
});

describe('structured content', () => {
  it('loses control and bidi characters and refuses deep nesting', () => {
    expect(sanitizeJson({ 'k\u202E': ['a\u0007b', { c: 'd\u200Be' }], n: 1 })).toEqual({ k: ['ab', { c: 'de' }], n: 1 });
    let deep: unknown = 'x';
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(() => sanitizeJson(deep)).toThrow();
  });
});

describe('a refused launch', () => {
  const refused = (code: 'approval_required' | 'secret_missing') =>
    ({ callId: 'c', status: 'error', durationMs: 1, presentation: {} as never, error: { code, message: 'x' } }) as Parameters<
      typeof failureMessage
    >[0];
  it('names every lost secret with its fix, bounded and without control characters', () => {
    const names = ['A_KEY', 'B\u0007_KEY', ...Array.from({ length: 11 }, (_, i) => `K${i}`)];
    const text = failureMessage(refused('approval_required'), 'Srv', names);
    expect(text).toBe(
      'Srv cannot start: the secrets A_KEY, B_KEY, K0, K1, K2, K3, K4, K5, K6, K7 and 3 more are no longer stored in Switchboard. ' +
        "Open Switchboard and enter them again on Srv's page, then try again.",
    );
  });
  it('says to approve when no secret is lost', () => {
    expect(failureMessage(refused('approval_required'), 'Srv')).toBe(
      'Srv is waiting for its launch to be approved. Open Switchboard and approve it, then try again.',
    );
  });
});
