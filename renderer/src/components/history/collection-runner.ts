// Runs a collection's calls in order from the window, checking each with the shared assertions (the ones
// `switchboard run` uses): resolve the tool in the catalog, call it, fetch the raw result and the output schema only
// when an assertion needs them. Reaches the core through the ports it is given, so a test can pass the real bridge.
import { checkCall, type CallCheckResult, type Evidence } from '../../../../shared/collections/assertions';
import type { CollectionCall } from '../../../../shared/collections/collection';
import { pickTool } from '../../../../shared/collections/resolve';
import type { ToolDetail, ToolSummary } from '../../../../shared/domains/catalog';
import type { AuditedEnvelope, CallOutcome } from '../../../../shared/domains/calls';
import { AppError } from '../../../../shared/errors';

/** What the runner needs from the core. */
export interface RunnerPorts {
  /** The catalog's tools (of one server when given). */
  tools(server: string | undefined): Promise<ToolSummary[]>;
  call(name: string, args: Record<string, unknown>, callId: string): Promise<CallOutcome>;
  cancel(callId: string): Promise<void>;
  result(callId: string): Promise<AuditedEnvelope>;
  toolDetail(name: string): Promise<ToolDetail>;
}

/** One call's row in the results table. */
export interface RunRow extends CallCheckResult {
  /** Position in the collection. */
  index: number;
  /** The History entry of the call, when one was made. */
  callId?: string;
}

const EMPTY_PRESENTATION = { isError: false, text: '', truncated: false, media: [], notices: [], links: [], resources: [] };

function message(err: unknown): string {
  return err instanceof AppError || err instanceof Error ? err.message : 'the call failed';
}

/** Runs one call and checks it. */
export async function runCall(ports: RunnerPorts, call: CollectionCall, index: number): Promise<RunRow> {
  const base = { index, name: call.name ?? call.tool, tool: call.tool };
  let outcome: CallOutcome;
  let evidence: Evidence = {};
  try {
    const picked = pickTool(await ports.tools(call.server), call.tool, call.server);
    if (!picked.ok) throw new Error(`${picked.message} (is its server connected?)`);
    const callId = crypto.randomUUID();
    const running = ports.call(picked.tool.name, call.args, callId);
    if (call.timeoutS === undefined) outcome = await running;
    else {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const expired = new Promise<'expired'>((r) => (timer = setTimeout(() => r('expired'), (call.timeoutS ?? 0) * 1000)));
      const first = await Promise.race([running, expired]).finally(() => clearTimeout(timer));
      if (first === 'expired') {
        await ports.cancel(callId).catch(() => undefined); // it may have ended meanwhile
        void running.catch(() => undefined);
        outcome = {
          callId,
          status: 'timeout',
          presentation: EMPTY_PRESENTATION,
          durationMs: call.timeoutS * 1000,
          error: { code: 'timeout', message: `no answer within ${call.timeoutS} s (cancelled)` },
        };
      } else outcome = first;
    }
    const e = call.expect;
    if (outcome.status !== 'timeout' && (e.jsonPath !== undefined || e.matchesOutputSchema)) {
      const result = (await ports.result(outcome.callId)).result as { structuredContent?: unknown } | null;
      if (result && typeof result === 'object' && 'structuredContent' in result) evidence = { structuredContent: result.structuredContent };
      if (e.matchesOutputSchema) {
        const detail = await ports.toolDetail(picked.tool.name);
        if (detail.outputSchema) evidence.outputSchema = detail.outputSchema;
      }
    }
  } catch (err) {
    return { ...base, status: 'not run', durationMs: 0, passed: false, assertions: [], error: message(err) };
  }
  const assertions = checkCall(call.expect, outcome, evidence);
  return {
    ...base,
    status: outcome.status,
    durationMs: outcome.durationMs,
    passed: assertions.every((a) => a.passed),
    assertions,
    callId: outcome.callId,
  };
}

/** Runs the calls in order, telling each row as it is done; stops early when `signal` aborts. */
export async function runCollection(
  ports: RunnerPorts,
  calls: readonly CollectionCall[],
  onRow: (row: RunRow) => void,
  signal?: AbortSignal,
): Promise<RunRow[]> {
  const rows: RunRow[] = [];
  for (const [index, call] of calls.entries()) {
    if (signal?.aborted) break;
    const row = await runCall(ports, call, index);
    rows.push(row);
    onRow(row);
  }
  return rows;
}
