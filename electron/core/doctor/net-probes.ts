// The network probes of the HTTP walk: name resolution, a TCP connect, and a TLS handshake that, when the
// certificate is refused, connects once more without verification only to read the certificate's facts.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, Socket } from 'node:net';
import { connect as tlsConnect, type PeerCertificate, type TLSSocket } from 'node:tls';

/** How long each probe may take. */
export const PROBE_TIMEOUT_MS = 10_000;

/** Resolves a host name to its addresses (dns.lookup's shape; tests may pass another resolver). */
export type LookupFn = (
  hostname: string,
  options: { all: true },
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/** The system resolver (getaddrinfo: hosts file, then DNS). */
export const systemLookup: LookupFn = (hostname, options, callback) => dnsLookup(hostname, options, callback);

/** Addresses of a host name; rejects with the resolver's error (code ENOTFOUND, EAI_AGAIN, ...). */
export function resolveHost(hostname: string, lookup: LookupFn = systemLookup, timeoutMs = PROBE_TIMEOUT_MS): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(Object.assign(new Error(`No answer from the resolver within ${timeoutMs / 1000} s`), { code: 'ETIMEOUT' })),
      timeoutMs,
    );
    timer.unref();
    lookup(hostname, { all: true }, (err, addresses) => {
      clearTimeout(timer);
      if (err !== null) reject(err);
      else resolve(addresses);
    });
  });
}

/** The hostname without IPv6 brackets. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/** Whether a hostname is an IP literal. */
export function isIpLiteral(hostname: string): boolean {
  return isIP(bareHost(hostname)) !== 0;
}

/** Opens and closes one TCP connection; rejects with the socket error (ECONNREFUSED, ETIMEDOUT, ...). */
export function tcpConnect(address: string, port: number, timeoutMs = PROBE_TIMEOUT_MS): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    const done = (err?: Error): void => {
      socket.destroy();
      if (err !== undefined) reject(err);
      else resolve();
    };
    socket.setTimeout(timeoutMs, () => done(Object.assign(new Error(`No answer within ${timeoutMs / 1000} s`), { code: 'ETIMEDOUT' })));
    socket.once('error', (err) => done(err));
    socket.connect({ host: address, port }, () => done());
  });
}

/** Facts of a certificate, for display. */
export interface CertificateFacts {
  subject?: string;
  issuer?: string;
  validFrom?: string;
  validTo?: string;
  altNames?: string;
  selfSigned: boolean;
}

/** What the TLS probe found. */
export interface TlsResult {
  /** Whether the certificate was accepted. */
  ok: boolean;
  /** TLS version negotiated. */
  protocol?: string;
  /** The peer's certificate. */
  certificate?: CertificateFacts;
  /** Why the certificate was refused (Node's code, e.g. DEPTH_ZERO_SELF_SIGNED_CERT). */
  code?: string;
  /** The refusal's message. */
  message?: string;
}

function names(entity: Record<string, string | string[] | undefined> | undefined): string | undefined {
  if (entity === undefined) return undefined;
  const parts = Object.entries(entity)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('+') : v}`);
  return parts.length > 0 ? parts.join(', ') : undefined;
}

function factsOf(cert: PeerCertificate | undefined): CertificateFacts | undefined {
  if (cert === undefined || Object.keys(cert).length === 0) return undefined;
  const subject = names(cert.subject as unknown as Record<string, string>);
  const issuer = names(cert.issuer as unknown as Record<string, string>);
  return {
    ...(subject !== undefined ? { subject } : {}),
    ...(issuer !== undefined ? { issuer } : {}),
    ...(cert.valid_from ? { validFrom: cert.valid_from } : {}),
    ...(cert.valid_to ? { validTo: cert.valid_to } : {}),
    ...(cert.subjectaltname ? { altNames: cert.subjectaltname } : {}),
    selfSigned: subject !== undefined && subject === issuer,
  };
}

function handshake(address: string, port: number, servername: string | undefined, verify: boolean, timeoutMs: number): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({
      host: address,
      port,
      rejectUnauthorized: verify,
      ...(servername !== undefined ? { servername } : {}),
      ALPNProtocols: ['http/1.1'],
    });
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      reject(Object.assign(new Error(`The TLS handshake did not finish within ${timeoutMs / 1000} s`), { code: 'ETIMEDOUT' }));
    });
    socket.once('secureConnect', () => resolve(socket));
    socket.once('error', (err) => {
      socket.destroy();
      reject(err);
    });
  });
}

/** Runs a verified TLS handshake; on refusal reads the certificate from an unverified one (nothing is sent over it). */
export async function probeTls(address: string, port: number, hostname: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<TlsResult> {
  const servername = isIpLiteral(hostname) ? undefined : hostname;
  try {
    const socket = await handshake(address, port, servername, true, timeoutMs);
    const result: TlsResult = { ok: true };
    const protocol = socket.getProtocol();
    if (protocol !== null) result.protocol = protocol;
    const certificate = factsOf(socket.getPeerCertificate());
    if (certificate !== undefined) result.certificate = certificate;
    socket.destroy();
    return result;
  } catch (err) {
    const error = err as NodeJS.ErrnoException;
    const result: TlsResult = { ok: false, message: error.message, ...(typeof error.code === 'string' ? { code: error.code } : {}) };
    if (error.code === 'ETIMEDOUT' || error.code === 'ECONNRESET' || error.code === 'ECONNREFUSED') return result;
    try {
      const socket = await handshake(address, port, servername, false, timeoutMs);
      const certificate = factsOf(socket.getPeerCertificate());
      if (certificate !== undefined) result.certificate = certificate;
      const protocol = socket.getProtocol();
      if (protocol !== null) result.protocol = protocol;
      socket.destroy();
    } catch {
      // the facts stay unknown
    }
    return result;
  }
}
