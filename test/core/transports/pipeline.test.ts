// The transport pipeline with real transports (an in-process SDK server, a stdio child): a message passes the
// factory layers and the live taps in the stated order whatever order the taps were installed in, the tracker sits
// outside the in-process layer, and the decorators keep what the session needs of an opened transport.
import { Client, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { afterEach, expect, it } from 'vitest';
import { ServerConfigSchema } from '../../../shared/config.js';
import { AppError } from '../../../shared/errors.js';
import { withBuiltinServers } from '../../../electron/demo/builtin-transport.js';
import type { IngressStage } from '../../../electron/core/ingress/incoming.js';
import { createTransportTracker } from '../../../electron/core/lifecycle/transport-tracker.js';
import type { TrafficSink } from '../../../electron/core/protocol/traffic-tap.js';
import type { ProcessSink } from '../../../electron/core/sessions/process-record.js';
import { createTransport } from '../../../electron/core/transports/create-transport.js';
import { INCOMING_TAPS, LiveTaps, OUTGOING_TAPS, transportPipeline } from '../../../electron/core/transports/pipeline.js';
import type { OpenedTransport, TransportContext, TransportFactory } from '../../../electron/core/transports/transport-factory.js';
import { collectLog, stdioConfig } from './helpers.js';

const BUILTIN = 'test:builtin';
const releases: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const release of releases.splice(0)) await release().catch(() => undefined);
});

const builtinConfig = ServerConfigSchema.parse({ id: 'b', name: 'b', transport: { type: 'stdio', command: BUILTIN, args: [] } });
const noProcesses: ProcessSink = { spawned: () => undefined, ended: () => undefined };

function idOf(message: JSONRPCMessage): unknown {
  return 'id' in message ? message.id : undefined;
}

it('passes a message through ingress, the traffic log and the live taps in the stated order, both ways', async () => {
  const order: string[] = [];
  let pingId: unknown;
  const note = (step: string, message: JSONRPCMessage): void => {
    if (pingId !== undefined && idOf(message) === pingId) order.push(step);
  };
  const traffic: TrafficSink = {
    prepare: () => Promise.resolve(),
    record: (_id, direction, message) => note(`${direction}:traffic`, message),
  };
  const ingress: IngressStage = (message) => {
    note('in:ingress', message);
    return message;
  };
  let seenContext: TransportContext | undefined;
  const base: TransportFactory = (ctx) => {
    seenContext = ctx;
    return createTransport(ctx);
  };
  const factory = transportPipeline(base, {
    inProcess: (inner) => withBuiltinServers(inner, { [BUILTIN]: () => new McpServer({ name: 'pipeline', version: '1' }) }),
    tracker: createTransportTracker(),
    processes: noProcesses,
    traffic,
  });
  const opened = factory({ config: builtinConfig, env: {}, log: collectLog().log, ingress: [ingress] });
  releases.push(() => opened.release());
  expect(seenContext, 'a built-in server is served in-process, not through the base factory').toBeUndefined();

  const taps = LiveTaps.of(opened.transport);
  // Installed out of their stated order: the phase tracker before connect, the events slot before the raw-request slot.
  taps.outgoing('phases', (message) => {
    note('out:phases', message);
    return undefined;
  });
  const client = new Client({ name: 'pipeline-test', version: '1' });
  await client.connect(opened.transport);
  releases.push(() => client.close());
  taps.outgoing('events', (message) => {
    if ('method' in message && message.method === 'ping') pingId = idOf(message);
    note('out:events', message);
    return undefined;
  });
  expect(
    taps.incoming('events', (message) => {
      note('in:events', message);
      return false;
    }),
  ).toBe(true);
  expect(
    taps.incoming('raw-request', (message) => {
      note('in:raw-request', message);
      return false;
    }),
  ).toBe(true);

  await client.ping();
  order.push('in:sdk');
  expect([...OUTGOING_TAPS]).toEqual(['events', 'phases']);
  expect([...INCOMING_TAPS]).toEqual(['raw-request', 'events']);
  // The order transports/pipeline.ts states: Client → events → phases → traffic → wire → ingress → traffic → raw-request → events → Client.
  expect(order).toEqual(['out:events', 'out:phases', 'out:traffic', 'in:ingress', 'in:traffic', 'in:raw-request', 'in:events', 'in:sdk']);
});

it('passes the rewrite of an earlier outgoing tap to the later ones and to the wire', async () => {
  const seenByPhases: unknown[] = [];
  const recorded: unknown[] = [];
  const factory = transportPipeline(createTransport, {
    inProcess: (inner) => withBuiltinServers(inner, { [BUILTIN]: () => new McpServer({ name: 'pipeline', version: '1' }) }),
    traffic: { prepare: () => Promise.resolve(), record: (_id, direction, m) => direction === 'out' && recorded.push(m) },
  });
  const opened = factory({ config: builtinConfig, env: {}, log: collectLog().log });
  releases.push(() => opened.release());
  const client = new Client({ name: 'pipeline-test', version: '1' });
  await client.connect(opened.transport);
  releases.push(() => client.close());
  const taps = LiveTaps.of(opened.transport);
  const marked = (m: JSONRPCMessage): boolean => 'method' in m && m.method === 'ping' && 'params' in m && m.params?._meta !== undefined;
  taps.outgoing('phases', (message) => {
    if ('method' in message && message.method === 'ping') seenByPhases.push(marked(message));
    return undefined;
  });
  taps.outgoing('events', (message) =>
    'method' in message && message.method === 'ping' ? { message: { ...message, params: { _meta: { 'test/marked': true } } } } : undefined,
  );
  await client.ping();
  expect(seenByPhases).toEqual([true]);
  expect(recorded.filter((m) => marked(m as JSONRPCMessage))).toHaveLength(1);
});

it('refuses new transports at shutdown before the in-process layer opens anything', () => {
  let made = 0;
  const tracker = createTransportTracker();
  const factory = transportPipeline(createTransport, {
    inProcess: (inner) =>
      withBuiltinServers(inner, {
        [BUILTIN]: () => {
          made += 1;
          return new McpServer({ name: 'pipeline', version: '1' });
        },
      }),
    tracker,
  });
  tracker.refuseNew('closing');
  let refusal: unknown;
  try {
    factory({ config: builtinConfig, env: {}, log: collectLog().log });
  } catch (err) {
    refusal = err;
  }
  expect(refusal).toBeInstanceOf(AppError);
  expect((refusal as AppError).code).toBe('cancelled');
  expect(made).toBe(0);
});

it('keeps a stdio transport’s pacing and hands it the process record and the ingress stages', async () => {
  const tracker = createTransportTracker();
  let seen: TransportContext | undefined;
  const base: TransportFactory = (ctx) => {
    seen = ctx;
    return createTransport(ctx);
  };
  const stage: IngressStage = (m) => m;
  const factory = transportPipeline(base, {
    tracker,
    processes: noProcesses,
    traffic: { prepare: () => Promise.resolve(), record: () => undefined },
  });
  const opened: OpenedTransport = factory({ config: stdioConfig('s', 'echo-stdio.ts'), env: {}, log: collectLog().log, ingress: [stage] });
  releases.push(() => opened.release());
  expect(seen?.processes).toBe(noProcesses);
  expect(seen?.ingress).toEqual([stage]);
  expect(typeof opened.pace, 'the flood guard slows a stdio reader through pace()').toBe('function');
});
