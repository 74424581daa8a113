import { describe, expect, it } from 'vitest';
import { hostReach } from '../../../electron/core/net/private-host.js';

/** The host name as the URL parser leaves it (decimal and hex IPv4 forms normalized, IPv6 bracketed). */
const reachOf = (url: string) => hostReach(new URL(url).hostname);

describe('hostReach', () => {
  it.each([
    ['http://127.0.0.1/', 'loopback'],
    ['http://127.9.8.7/', 'loopback'],
    ['http://2130706433/', 'loopback'],
    ['http://0x7f.1/', 'loopback'],
    ['http://localhost/', 'loopback'],
    ['http://api.localhost/', 'loopback'],
    ['http://[::1]/', 'loopback'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://169.254.169.254/latest/meta-data', 'private'],
    ['http://10.1.2.3/', 'private'],
    ['http://172.16.0.1/', 'private'],
    ['http://172.31.255.255/', 'private'],
    ['http://192.168.1.1/', 'private'],
    ['http://100.64.0.1/', 'private'],
    ['http://0.0.0.0/', 'private'],
    ['http://[fd00::1]/', 'private'],
    ['http://[fe80::1]/', 'private'],
    ['http://[::ffff:10.0.0.1]/', 'private'],
    ['http://metadata.google.internal/', 'private'],
    ['http://printer.local/', 'private'],
    ['http://intranet/', 'private'],
    ['https://auth.example.com/', 'public'],
    ['https://8.8.8.8/', 'public'],
    ['https://172.32.0.1/', 'public'],
    ['https://[2001:db8::1]/', 'public'],
  ])('%s is %s', (url, reach) => {
    expect(reachOf(url)).toBe(reach);
  });
});
