// `switchboard load TOOL --args JSON --concurrency N (--requests N | --duration S) [--rate R] [--server ID]
// [--allow-remote] [--json]`: latency percentiles, throughput and error rate of one tool under load. Bounded, and
// refused for servers reached over the network unless --allow-remote (load on someone else's server is their outage).
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import { isLoopbackHost } from '../../shared/config.js';
import { positiveNumber, readArgs, type Flags } from './args.js';
import { CliError } from './cli-error.js';
import type { CliCore } from './cli-core.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import { runLoad, type LoadPlan } from './load/load-runner.js';
import { loadReport } from './load/stats.js';
import type { Output } from './output.js';
import { connectFor, resolveTool } from './tool-commands.js';

/** The bounds: a load run is a test, not a flood. */
export const LOAD_LIMITS = { concurrency: 256, requests: 100_000, durationS: 3600, rate: 10_000 } as const;

/** The plan from the flags, within the bounds. */
export function loadPlan(flags: Flags): LoadPlan {
  const concurrency = positiveNumber('concurrency', flags.concurrency, true) ?? 1;
  const requests = positiveNumber('requests', flags.requests, true);
  const durationS = positiveNumber('duration', flags.duration);
  const rate = positiveNumber('rate', flags.rate);
  if (requests === undefined && durationS === undefined) throw CliError.usage('load needs --requests N or --duration S');
  if (concurrency > LOAD_LIMITS.concurrency) throw CliError.usage(`--concurrency is at most ${LOAD_LIMITS.concurrency}`);
  if (requests !== undefined && requests > LOAD_LIMITS.requests) throw CliError.usage(`--requests is at most ${LOAD_LIMITS.requests}`);
  if (durationS !== undefined && durationS > LOAD_LIMITS.durationS)
    throw CliError.usage(`--duration is at most ${LOAD_LIMITS.durationS} s`);
  if (rate !== undefined && rate > LOAD_LIMITS.rate) throw CliError.usage(`--rate is at most ${LOAD_LIMITS.rate}`);
  return {
    concurrency,
    ...(requests !== undefined ? { requests } : {}),
    ...(durationS !== undefined ? { durationS } : {}),
    ...(rate !== undefined ? { rate } : {}),
  };
}

/** A usage error for a server reached over the network (not this machine), unless allowed. */
async function refuseRemote(core: CliCore, id: string, allowRemote: boolean): Promise<void> {
  const { config } = await core.call('servers.get', { id });
  if (config.transport.type === 'stdio' || allowRemote) return;
  const host = new URL(config.transport.url).hostname;
  if (!isLoopbackHost(host)) throw CliError.usage(`${id} is reached over the network (${host}): pass --allow-remote to load it`);
}

/** `load TOOL …`. */
export async function loadCommand(core: CliCore, words: string[], flags: Flags, out: Output): Promise<ExitCode> {
  const name = words[0];
  if (name === undefined) throw CliError.usage('load needs a TOOL name');
  const plan = loadPlan(flags);
  const args = readArgs(flags.args);
  // Checked before connecting when the server is named, so a remote server is not even contacted.
  if (flags.server !== undefined) await refuseRemote(core, flags.server, flags.allowRemote);
  const failures = await connectFor(core, flags.server);
  const tool = await resolveTool(core, name, flags.server).catch((err: unknown) => {
    throw failures[0] ?? err;
  });
  await refuseRemote(core, tool.serverId, flags.allowRemote);
  const { samples, elapsedS } = await runLoad(
    plan,
    async () => {
      const outcome = await core.call('tools.call', { name: tool.name, arguments: args, callId: randomUUID() });
      return outcome.status === 'ok' ? { ok: true } : { ok: false, code: outcome.error?.code ?? outcome.status };
    },
    { now: () => performance.now(), sleep: (ms) => sleep(ms) },
  );
  const report = loadReport(samples, elapsedS);
  if (flags.json) out.json({ tool: tool.name, plan, ...report });
  else {
    const l = report.latencyMs;
    out.line(`${tool.name}: ${report.requests} requests in ${report.durationS} s, concurrency ${plan.concurrency}`);
    out.line(`throughput  ${report.throughput} req/s`);
    out.line(`latency ms  p50 ${l.p50}  p95 ${l.p95}  p99 ${l.p99}  (min ${l.min}, mean ${l.mean}, max ${l.max})`);
    out.line(
      `errors      ${report.errors} (${report.errorRate * 100}%)${Object.entries(report.errorCodes)
        .map(([c, n]) => ` ${c}×${n}`)
        .join('')}`,
    );
  }
  return report.errors > 0 ? EXIT.toolError : EXIT.ok;
}
