// Preloaded (node --require) into the conformance tool: its scenario servers call listen(0) without a host, which
// would bind every interface, and read server.address() synchronously right after. Bind such calls to 127.0.0.1
// synchronously through the same internal step Node uses for a host-less listen (Server#_listen2), so address()
// works at once. Calls that name a host or a path are left alone.
/* global require */
'use strict';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a --require preload is CommonJS
const net = require('node:net');
const original = net.Server.prototype.listen;
net.Server.prototype.listen = function listen(...args) {
  const first = args[0];
  const second = args[1];
  const portOnly = typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first));
  if (portOnly && typeof second !== 'string' && typeof this._listen2 === 'function') {
    const callback = args.find((a) => typeof a === 'function');
    const backlog = typeof second === 'number' ? second : 511;
    if (callback !== undefined) this.once('listening', callback);
    this._listen2('127.0.0.1', Number(first), 4, backlog, undefined, 0);
    return this;
  }
  return original.apply(this, args);
};
