// `switchboard run COLLECTION… [--reporter junit [--out FILE]] [--json]`: each collection's calls in order, each
// checked against its assertions; exit 0 only when every assertion of every call held.
import { writeFileSync } from 'node:fs';
import type { ToolSummary } from '../../shared/domains/catalog.js';
import type { CallOutcome } from '../../shared/domains/calls.js';
import type { Flags } from './args.js';
import { CliError } from './cli-error.js';
import type { CliCore } from './cli-core.js';
import { checkCall, type Evidence } from '../../shared/collections/assertions.js';
import { loadCollection, type CollectionCall } from './collection/collection-file.js';
import { junitXml, summaryLines, type CallResult } from './collection/reporters.js';
import { connectServer } from './connect.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import type { Output } from './output.js';
import { callTool, connectFor, resolveTool } from './tool-commands.js';

/** Connects each server once per run; a server that failed fails every call to it with the same reason. */
function connector(core: CliCore): (server: string | undefined) => Promise<void> {
  const done = new Map<string, Promise<void>>();
  return (server) => {
    const key = server ?? '*';
    let p = done.get(key);
    if (!p) {
      p = server !== undefined ? connectServer(core, server) : connectFor(core, undefined).then(() => undefined);
      done.set(key, p);
    }
    return p;
  };
}

/**
 * Resolves each (tool, server) once per run: a search of the whole catalog per call cost more than the call itself
 * for a fast tool. A tool gone from the catalog meanwhile still fails at the call, with the core's not_found.
 */
function resolver(core: CliCore): (tool: string, server: string | undefined) => Promise<ToolSummary> {
  const found = new Map<string, Promise<ToolSummary>>();
  return (tool, server) => {
    const key = JSON.stringify([tool, server ?? null]);
    let p = found.get(key);
    if (!p) {
      p = resolveTool(core, tool, server);
      // A failed resolution is not kept: the next call to it tries again (a server may have connected since).
      p.catch(() => found.delete(key));
      found.set(key, p);
    }
    return p;
  };
}

async function runCall(
  core: CliCore,
  suite: string,
  call: CollectionCall,
  connect: (s: string | undefined) => Promise<void>,
  resolve: (tool: string, server: string | undefined) => Promise<ToolSummary>,
): Promise<CallResult> {
  const name = call.name ?? call.tool;
  const base = { suite, name, tool: call.tool };
  let outcome: CallOutcome;
  let evidence: Evidence = {};
  try {
    await connect(call.server);
    const tool = await resolve(call.tool, call.server);
    try {
      outcome = await callTool(core, tool, call.args, call.timeoutS);
    } catch (err) {
      if (!(err instanceof CliError) || err.exitCode !== EXIT.timeout) throw err;
      // A timeout is an outcome the collection may expect.
      const presentation = { isError: false, text: '', truncated: false, media: [], notices: [], links: [], resources: [] };
      outcome = {
        callId: '',
        status: 'timeout',
        presentation,
        durationMs: (call.timeoutS ?? 0) * 1000,
        error: { code: 'timeout', message: err.message },
      };
    }
    const e = call.expect;
    if (outcome.callId !== '' && (e.jsonPath !== undefined || e.matchesOutputSchema)) {
      const envelope = await core.call('calls.result', { callId: outcome.callId });
      const result = envelope.result as { structuredContent?: unknown } | null;
      evidence = {
        ...(result && typeof result === 'object' && 'structuredContent' in result ? { structuredContent: result.structuredContent } : {}),
      };
      if (e.matchesOutputSchema) {
        const detail = await core.call('catalog.tool', { name: tool.name });
        if (detail.outputSchema) evidence.outputSchema = detail.outputSchema;
      }
    }
  } catch (err) {
    // An interrupted run (Ctrl-C, SIGTERM) stops here, its running call cancelled, rather than going on to the next.
    if (!(err instanceof CliError) || err.exitCode === EXIT.interrupted || err.exitCode === EXIT.terminated) throw err;
    return { ...base, status: 'not run', durationMs: 0, passed: false, assertions: [], error: err.message };
  }
  const assertions = checkCall(call.expect, outcome, evidence);
  return { ...base, status: outcome.status, durationMs: outcome.durationMs, passed: assertions.every((a) => a.passed), assertions };
}

/** `run COLLECTION…`. */
export async function runCollections(core: CliCore, words: string[], flags: Flags, out: Output): Promise<ExitCode> {
  if (words.length === 0) throw CliError.usage('run needs at least one COLLECTION file');
  if (flags.reporter !== undefined && flags.reporter !== 'junit')
    throw CliError.usage(`Unknown --reporter ${flags.reporter} (junit is the one there is)`);
  const collections = words.map(loadCollection); // every file is checked before any call is made
  const connect = connector(core);
  const resolve = resolver(core);
  const results: CallResult[] = [];
  for (const collection of collections)
    for (const call of collection.calls) {
      const result = await runCall(core, collection.name, call, connect, resolve);
      results.push(result);
      if (flags.json) out.json(result);
    }
  if (!flags.json) for (const line of summaryLines(results)) out.line(line);
  if (flags.reporter === 'junit') {
    const file = flags.out ?? 'switchboard-junit.xml';
    writeFileSync(file, junitXml(results));
    out.note(`JUnit XML written to ${file}`);
  }
  return results.every((r) => r.passed) ? EXIT.ok : EXIT.assertionFailed;
}
