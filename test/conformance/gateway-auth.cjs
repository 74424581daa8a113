// Preloaded (node --require) into the conformance tool for the server suites: the scenario clients connect without
// credentials, but the gateway accepts only a bearer token in the Authorization header. This adds the test
// client's token to requests for the gateway's origin (global fetch, undici's request used by the DNS-rebinding
// scenario, and node:http's request used by the header-validation scenarios), the way a configured MCP client
// sends it. Nothing else is touched.
/* global require, process, URL, Headers, Request */
'use strict';
const origin = process.env['SWITCHBOARD_GATEWAY_ORIGIN'];
const token = process.env['SWITCHBOARD_GATEWAY_TOKEN'];
if (origin && token) {
  const header = `Bearer ${token}`;
  const withToken = (headers) => {
    const h = new Headers(headers);
    if (!h.has('authorization')) h.set('authorization', header);
    return h;
  };
  const originalFetch = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.origin !== origin) return originalFetch(input, init);
    const base = init?.headers ?? (input instanceof Request ? input.headers : undefined);
    return originalFetch(input, { ...init, headers: withToken(base) });
  };
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a --require preload is CommonJS
  const undici = require('undici');
  const originalRequest = undici.request;
  undici.request = (url, opts = {}) => {
    if (new URL(String(url)).origin !== origin) return originalRequest(url, opts);
    const headers = { ...(opts.headers ?? {}) };
    if (!Object.keys(headers).some((k) => k.toLowerCase() === 'authorization')) headers['authorization'] = header;
    return originalRequest(url, { ...opts, headers });
  };
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a --require preload is CommonJS
  const http = require('http');
  const target = new URL(origin);
  const originalHttpRequest = http.request;
  http.request = (options, ...rest) => {
    const o = options;
    const ours =
      o !== null &&
      typeof o === 'object' &&
      !(o instanceof URL) &&
      String(o.hostname ?? o.host ?? '') === target.hostname &&
      String(o.port ?? '') === target.port;
    if (!ours) return originalHttpRequest(options, ...rest);
    const headers = { ...(o.headers ?? {}) };
    if (!Object.keys(headers).some((k) => k.toLowerCase() === 'authorization')) headers['authorization'] = header;
    return originalHttpRequest({ ...o, headers }, ...rest);
  };
}
