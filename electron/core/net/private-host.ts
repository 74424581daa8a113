// Which host names point at this machine or a private network, read from the name as written (after WHATWG URL
// parsing, which already turns 2130706433, 0x7f.1 and friends into dotted IPv4). Names are not resolved: a public
// name whose DNS answers with a private address is not caught here (see README, security notes).
import { isIP } from 'node:net';
import { isLoopbackHost } from '../../../shared/config.js';

/** The kind of network a host name points into, by its spelling. */
export type HostReach = 'loopback' | 'private' | 'public';

function ipv4Reach(ip: string): HostReach {
  const [a = 0, b = 0] = ip.split('.').map(Number);
  if (a === 127) return 'loopback';
  if (
    a === 0 || // "this network"
    a === 10 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local, cloud metadata services
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    a >= 224 // multicast, reserved, broadcast
  )
    return 'private';
  return 'public';
}

function ipv6Reach(ip: string): HostReach {
  const lower = ip.toLowerCase();
  if (lower === '::1') return 'loopback';
  if (lower === '::') return 'private';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return ipv4Reach(mapped[1]!);
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const hi = parseInt(hex[1]!, 16);
    const lo = parseInt(hex[2]!, 16);
    return ipv4Reach(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  const first = parseInt(lower.split(':')[0] || '0', 16);
  if ((first & 0xfe00) === 0xfc00) return 'private'; // unique local fc00::/7
  if ((first & 0xffc0) === 0xfe80) return 'private'; // link-local fe80::/10
  if ((first & 0xff00) === 0xff00) return 'private'; // multicast
  return 'public';
}

/** Where a URL host name points: this machine, a private or special-use network, or the public internet. */
export function hostReach(hostname: string): HostReach {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (isLoopbackHost(host) || host.endsWith('.localhost')) return 'loopback';
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const kind = isIP(bare);
  if (kind === 4) return ipv4Reach(bare);
  if (kind === 6) return ipv6Reach(bare);
  // Names that only resolve inside a network: mDNS, and the suffixes reserved for private use.
  if (!host.includes('.') || /\.(local|internal|lan|home\.arpa|intranet|corp)$/.test(host)) return 'private';
  return 'public';
}
