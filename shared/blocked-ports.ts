// The ports the Fetch standard's "bad port" list blocks (Node's fetch and every browser refuse them, failing with a
// bare "fetch failed (bad port)"), so Switchboard refuses a server URL on one up front and names the port.

/** Ports fetch refuses to connect to (https://fetch.spec.whatwg.org/#port-blocking). */
export const FETCH_BLOCKED_PORTS: ReadonlySet<number> = new Set([
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117,
  119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636,
  989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** The port of an http(s) URL when fetch would refuse it, else undefined (also for an unparsable URL). */
export function fetchBlockedPort(url: string): number | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  const port = parsed.port === '' ? (parsed.protocol === 'https:' ? 443 : 80) : Number(parsed.port);
  return FETCH_BLOCKED_PORTS.has(port) ? port : undefined;
}

/** The sentence that explains a blocked port. */
export function blockedPortMessage(port: number): string {
  return `Port ${port} is on the list of ports fetch refuses to connect to (it is reserved for another protocol); run the server on another port`;
}
