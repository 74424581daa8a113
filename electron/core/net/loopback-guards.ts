// Host and Origin checks for an HTTP listener on 127.0.0.1: every local listener (the gateway's HTTP front, the
// headless bridge, the app sandbox) refuses a request whose Host or Origin is not its own, before any handler runs.

/** True when the Host header names this listener on 127.0.0.1 or localhost (DNS-rebinding guard). */
export function hostAllowed(hostHeader: string | undefined, port: number): boolean {
  if (hostHeader === undefined) return false;
  const value = hostHeader.toLowerCase();
  return value === `127.0.0.1:${port}` || value === `localhost:${port}`;
}

/** True when the Origin header is this listener's own origin. */
export function originAllowed(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return false;
  return origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`;
}
