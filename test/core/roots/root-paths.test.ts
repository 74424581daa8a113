// Turning what a person enters into roots: absolute paths and file:// URIs only.
import { describe, expect, it } from 'vitest';
import { rootView, toRoot } from '../../../electron/core/roots/root-paths.js';

describe('roots', () => {
  it('accepts absolute paths and file:// URIs and shows whether the folder exists', () => {
    expect(toRoot({ path: '/tmp', name: ' Temp ' })).toEqual({ uri: 'file:///tmp', name: 'Temp' });
    expect(toRoot({ path: 'file:///home/a%20b' })).toEqual({ uri: 'file:///home/a%20b' });
    expect(toRoot({ path: '/srv/../etc/./x' })).toEqual({ uri: 'file:///etc/x' });
    expect(rootView({ uri: 'file:///tmp' })).toEqual({ uri: 'file:///tmp', path: '/tmp', exists: true });
    expect(rootView({ uri: 'file:///no/such/folder' }).exists).toBe(false);
  });

  it('refuses relative paths, other schemes, remote hosts and control characters with a clear message', () => {
    expect(() => toRoot({ path: 'projects/x' })).toThrow(/full folder path/);
    expect(() => toRoot({ path: 'https://example.com/x' })).toThrow(/file:\/\//);
    expect(() => toRoot({ path: 'file://server/share' })).toThrow(/this machine/);
    expect(() => toRoot({ path: '/tmp/a\nb' })).toThrow(/control characters/);
  });
});
