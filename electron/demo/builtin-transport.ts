// Opens built-in servers in-process. A server definition whose stdio command is a built-in's name (the demo's
// `switchboard:demo`) is served from this process over the SDK's linked in-memory transports, through the SDK's
// `serveStdio` entry on a custom transport, so both protocol eras work as they do over real stdio. Everything
// else goes to the real transport factory. Nothing is spawned and no path is involved.
import { InMemoryTransport, type McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { OpenedTransport, TransportFactory } from '../core/transports/transport-factory.js';

/** Built-in servers by command name. */
export type BuiltinServers = Readonly<Record<string, () => McpServer>>;

/** The built-in server a stdio command names, if it names one. */
export function builtinFor(builtins: BuiltinServers, command: string): (() => McpServer) | undefined {
  return Object.prototype.hasOwnProperty.call(builtins, command) ? builtins[command] : undefined;
}

/** Wraps `inner` so built-in servers open in-process. */
export function withBuiltinServers(inner: TransportFactory, builtins: BuiltinServers): TransportFactory {
  return (ctx) => {
    const t = ctx.config.transport;
    const make = t.type === 'stdio' ? builtinFor(builtins, t.command) : undefined;
    if (!make) return inner(ctx);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const handle = serveStdio(make, {
      transport: serverSide,
      onerror: (err) => ctx.log('protocol', 'warning', `The built-in server reported: ${err.message}`),
    });
    let released: Promise<void> | undefined;
    const opened: OpenedTransport = {
      transport: clientSide,
      diagnostics: { evidence: () => ({ phase: 'in-process' }) },
      release: () => {
        released ??= (async () => {
          await clientSide.close().catch(() => undefined);
          await handle.close().catch(() => undefined);
        })();
        return released;
      },
    };
    ctx.log('protocol', 'debug', `Opened the built-in server ${t.type === 'stdio' ? t.command : ''} in-process`);
    return opened;
  };
}
