// `switchboard tools list` and `switchboard call`: the catalog and a tool call through the contract, as the Tools view.
import { randomUUID } from 'node:crypto';
import type { ToolSummary } from '../../shared/domains/catalog.js';
import type { CallOutcome } from '../../shared/domains/calls.js';
import { pickTool } from '../../shared/collections/resolve.js';
import { positiveNumber, readArgs, type Flags } from './args.js';
import { CliError } from './cli-error.js';
import type { CliCore } from './cli-core.js';
import { connectServer, signInNeeded } from './connect.js';
import { EXIT, exitFor, type ExitCode } from './exit-codes.js';
import type { Output } from './output.js';

/** Connects `--server`, or every enabled server; failures of some are returned rather than fatal. */
export async function connectFor(core: CliCore, server: string | undefined): Promise<CliError[]> {
  if (server !== undefined) {
    await connectServer(core, server);
    return [];
  }
  const failures: CliError[] = [];
  for (const s of await core.call('servers.list', {})) {
    if (!s.enabled) continue;
    try {
      await connectServer(core, s.id);
    } catch (err) {
      if (!(err instanceof CliError)) throw err;
      failures.push(err);
    }
  }
  return failures;
}

async function catalogTools(core: CliCore, server: string | undefined): Promise<ToolSummary[]> {
  const page = await core.call('catalog.search', {
    query: '',
    ...(server !== undefined ? { serverIds: [server] } : {}),
    limit: 25_000,
    includeGroups: false,
  });
  return page.tools;
}

/** `tools list [--server ID] [--json]`. */
export async function toolsList(core: CliCore, flags: Flags, out: Output): Promise<ExitCode> {
  const failures = await connectFor(core, flags.server);
  for (const f of failures) out.note(f.message);
  const tools = await catalogTools(core, flags.server);
  if (flags.json) out.json(tools);
  else for (const t of tools) out.row([t.name, t.description]);
  return failures[0]?.exitCode ?? EXIT.ok;
}

/** Finds a tool by its local name (`mcp__server__tool`) or its original name; ambiguous or unknown is a usage error. */
export async function resolveTool(core: CliCore, name: string, server: string | undefined): Promise<ToolSummary> {
  const picked = pickTool(await catalogTools(core, server), name, server);
  if (picked.ok) return picked.tool;
  throw picked.reason === 'ambiguous' ? CliError.usage(picked.message) : new CliError(EXIT.usage, 'not_found', picked.message);
}

/** How long an interrupted command waits for the core to take its cancel before it exits anyway. */
const CANCEL_WAIT_MS = 5_000;

/** Resolves with the first of SIGINT and SIGTERM this process gets while `during` runs (its handlers then go). */
function interruption(): { signal: Promise<'SIGINT' | 'SIGTERM'>; stop: () => void } {
  let heard: (signal: 'SIGINT' | 'SIGTERM') => void = () => undefined;
  const signal = new Promise<'SIGINT' | 'SIGTERM'>((r) => (heard = r));
  const onInt = (): void => {
    stop();
    heard('SIGINT');
  };
  const onTerm = (): void => {
    stop();
    heard('SIGTERM');
  };
  // Once heard, the handlers go: a second Ctrl-C ends the command at once, as it would have without them.
  const stop = (): void => {
    process.removeListener('SIGINT', onInt);
    process.removeListener('SIGTERM', onTerm);
  };
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return { signal, stop };
}

/** Resolves after `ms` (or when `p` settles first). */
function bounded(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p.then(
      () => undefined,
      () => undefined,
    ),
    new Promise<void>((r) => (timer = setTimeout(r, ms))),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Calls a tool with a client-side time limit: when it runs out the call is cancelled and ends as a timeout. A SIGINT
 * or SIGTERM while it runs cancels it too (in the running app's core as well: the call ends cancelled in its
 * History), then the command exits 130 or 143.
 */
export async function callTool(
  core: CliCore,
  tool: ToolSummary,
  args: Record<string, unknown>,
  timeoutS: number | undefined,
): Promise<CallOutcome> {
  const callId = randomUUID();
  const interrupted = interruption();
  const call = core.call('tools.call', { name: tool.name, arguments: args, callId });
  let timer: NodeJS.Timeout | undefined;
  const expired =
    timeoutS === undefined
      ? new Promise<never>(() => undefined)
      : new Promise<'expired'>((r) => (timer = setTimeout(() => r('expired'), timeoutS * 1000)));
  try {
    const first = await Promise.race([call, expired, interrupted.signal]);
    if (first !== 'expired' && first !== 'SIGINT' && first !== 'SIGTERM') return first;
    // It may have ended meanwhile; a core that does not take the cancel in time does not hold the command.
    await bounded(core.call('tools.cancel', { callId }), CANCEL_WAIT_MS);
    void call.catch(() => undefined); // its rejection after the cancel is the expected end
    if (first === 'expired')
      throw new CliError(EXIT.timeout, 'timeout', `${tool.name} did not answer within --timeout ${timeoutS ?? 0} s (cancelled)`);
    // The call's own end (cancelled) is what the History shows; waited for briefly so it is recorded before we go.
    await bounded(call, CANCEL_WAIT_MS);
    throw new CliError(first === 'SIGINT' ? EXIT.interrupted : EXIT.terminated, 'cancelled', `${tool.name} was cancelled (${first})`, {
      callId,
    });
  } finally {
    clearTimeout(timer);
    interrupted.stop();
  }
}

/** The exit code an outcome stands for. */
export function outcomeExit(outcome: CallOutcome): ExitCode {
  if (outcome.status === 'ok') return EXIT.ok;
  if (outcome.status === 'timeout') return EXIT.timeout;
  return outcome.error ? exitFor(outcome.error.code) : EXIT.toolError;
}

/** `call TOOL --args JSON|@file [--server ID] [--json] [--timeout S]`. */
export async function callCommand(core: CliCore, words: string[], flags: Flags, out: Output): Promise<ExitCode> {
  const name = words[0];
  if (name === undefined) throw CliError.usage('call needs a TOOL name');
  const args = readArgs(flags.args);
  const timeoutS = positiveNumber('timeout', flags.timeout);
  const failures = await connectFor(core, flags.server);
  let tool: ToolSummary;
  try {
    tool = await resolveTool(core, name, flags.server);
  } catch (err) {
    // The tool may be on a server that could not connect: that failure is the real cause.
    throw failures[0] ?? err;
  }
  for (const f of failures) out.note(f.message);
  const outcome = await callTool(core, tool, args, timeoutS);
  const code = outcomeExit(outcome);
  if (code === EXIT.authorization) {
    const pending = await signInNeeded(core, tool.serverId, outcome.error?.message);
    if (flags.json) out.json({ ...outcome, ...pending.details });
    else out.note(pending.message);
    return code;
  }
  if (flags.json) out.json(outcome);
  else {
    const p = outcome.presentation;
    if (p.text !== '') out.line(p.text);
    else if (p.structured !== undefined) out.line(p.structured);
    for (const notice of p.notices) out.note(notice);
    if (outcome.error && outcome.status !== 'ok') out.note(`${outcome.error.code}: ${outcome.error.message}`);
  }
  return code;
}
