// The one list of ports fetch refuses, and the port of a URL checked against it (default ports included).
import { describe, expect, it } from 'vitest';
import { blockedPortMessage, FETCH_BLOCKED_PORTS, fetchBlockedPort } from '../../shared/blocked-ports.js';

describe('fetch-blocked ports', () => {
  it('finds the port of http and https URLs on the list; default ports and ordinary ones pass', () => {
    expect(fetchBlockedPort('http://127.0.0.1:9/mcp')).toBe(9);
    expect(fetchBlockedPort('https://example.com:6666/mcp')).toBe(6666);
    expect(fetchBlockedPort('http://[::1]:25/')).toBe(25);
    expect(fetchBlockedPort('http://127.0.0.1/mcp')).toBeUndefined();
    expect(fetchBlockedPort('https://example.com/mcp')).toBeUndefined();
    expect(fetchBlockedPort('http://127.0.0.1:3000/mcp')).toBeUndefined();
    expect(fetchBlockedPort('not a url')).toBeUndefined();
  });

  it('agrees with what Node’s fetch refuses', async () => {
    // Only the blocked port is asked: fetch refuses it before any connection is tried.
    await expect(fetch('http://127.0.0.1:9/')).rejects.toMatchObject({ cause: { message: 'bad port' } });
    expect(FETCH_BLOCKED_PORTS.has(9)).toBe(true);
  });

  it('the message names the port', () => {
    expect(blockedPortMessage(9)).toMatch(/^Port 9 /);
  });
});
