// The doctor walk for a server built into Switchboard (the demo): nothing is looked up on the PATH or started, so
// those steps say so instead of reporting a command that does not exist; the handshake and the tool listing run for
// real, in-process, through the same transport the session uses.
import type { Implementation } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/config.js';
import type { DoctorWalk, StdioStepId } from '../../../shared/domains/doctor.js';
import { AppError } from '../../../shared/errors.js';
import { establish, type Established } from '../sessions/lifecycle.js';
import type { OpenedTransport, TransportFactory } from '../transports/transport-factory.js';
import { negotiatedOutcome, WalkRecorder } from './walk-steps.js';

/** What the built-in walk needs. */
export interface BuiltinWalkInput {
  config: ServerConfig;
  /** Opens the built-in server in-process. */
  factory: TransportFactory;
  clientInfo: Implementation;
}

/** Walks a built-in server. */
export async function walkBuiltin(input: BuiltinWalkInput): Promise<DoctorWalk> {
  const walk = new WalkRecorder<StdioStepId>('stdio');
  await walk.step('command', 'Command found', async () => ({
    summary: 'Built into Switchboard: it runs inside the app, so no program is looked up',
  }));
  walk.skip('executable', 'Executable', 'Not needed: nothing is started');
  walk.skip('spawn', 'Started', 'Not needed: the server runs inside Switchboard');
  walk.skip('stdout', 'First output is JSON-RPC', 'Not needed: messages pass in memory');
  const opened: OpenedTransport[] = [];
  const started = Date.now();
  let established: Established | undefined;
  let failure: AppError | undefined;
  try {
    established = await establish({
      config: input.config,
      env: {},
      factory: (ctx) => {
        const o = input.factory(ctx);
        opened.push(o);
        return o;
      },
      log: () => undefined,
      clientInfo: input.clientInfo,
      signal: new AbortController().signal,
    });
  } catch (err) {
    failure = err instanceof AppError ? err : new AppError('connect_failed', (err as Error).message);
  }
  try {
    await walk.step('handshake', 'Handshake', async () =>
      established === undefined
        ? { status: 'failed', summary: failure?.message ?? 'The handshake did not complete', advice: 'Restart Switchboard.' }
        : { ...negotiatedOutcome(established), elapsedMs: Date.now() - started },
    );
    await walk.step('tools', 'Tools listed', async () => {
      const listed = await established!.client.listTools();
      return { summary: `${listed.tools.length} tool(s)`, evidence: [['Tools', listed.tools.map((t) => t.name).join(', ') || '(none)']] };
    });
  } finally {
    await established?.client.close().catch(() => undefined);
    await Promise.all(opened.map((o) => o.release().catch(() => undefined)));
  }
  return walk.result();
}
