import { describe, expect, it } from 'vitest';
import { assignLocalNames, baseLocalName, MAX_LOCAL_NAME, normalizeSegment } from '../../../electron/core/catalog/naming.js';

const none = (): boolean => false;

describe('local tool names', () => {
  it('normalizes every segment to [a-z0-9_]', () => {
    expect(baseLocalName('my-server', 'Get-Weather')).toBe('mcp__my_server__get_weather');
    expect(normalizeSegment('🚀launch')).toBe('launch');
    expect(normalizeSegment('café')).toBe('cafe');
    expect(normalizeSegment('日本語ツール')).toBe('tool');
    expect(normalizeSegment('a  b__c')).toBe('a_b_c');
  });

  it('hashes every same-server collision, independently of list order', () => {
    const tools = ['Get-Weather', 'get_weather', 'GET WEATHER', 'plain'];
    const a = assignLocalNames('s', tools, new Map(), none).names;
    const b = assignLocalNames('s', [...tools].reverse(), new Map(), none).names;
    expect(a).toEqual(b);
    expect(a.get('plain')).toBe('mcp__s__plain');
    const hashed = ['Get-Weather', 'get_weather', 'GET WEATHER'].map((t) => a.get(t)!);
    for (const n of hashed) expect(n).toMatch(/^mcp__s__get_weather_[0-9a-f]{8}$/);
    expect(new Set(hashed).size).toBe(3);
  });

  it('caps names at 64 characters with a hash suffix', () => {
    const long = `very_${'long_'.repeat(20)}name`;
    const n = assignLocalNames('server', [long], new Map(), none).names.get(long)!;
    expect(n.length).toBeLessThanOrEqual(MAX_LOCAL_NAME);
    expect(n).toMatch(/_[0-9a-f]{8}$/);
  });

  it('keeps retained identities and hashes only the newcomer', () => {
    const first = assignLocalNames('s', ['get_weather'], new Map(), none);
    expect(first.names.get('get_weather')).toBe('mcp__s__get_weather');
    const second = assignLocalNames('s', ['Get-Weather', 'get_weather'], first.names, none);
    expect(second.names.get('get_weather')).toBe('mcp__s__get_weather');
    expect(second.names.get('Get-Weather')).toMatch(/^mcp__s__get_weather_[0-9a-f]{8}$/);
    expect([...second.added.keys()]).toEqual(['Get-Weather']);
  });

  it('hashes a name another server already owns', () => {
    const taken = (n: string): boolean => n === 'mcp__a_b__echo';
    expect(assignLocalNames('a_b', ['echo'], new Map(), taken).names.get('echo')).toMatch(/^mcp__a_b__echo_[0-9a-f]{8}$/);
  });
});
