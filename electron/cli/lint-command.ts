// `switchboard lint [--server ID] [--probe] [--json]`: the catalog checks of lint/lint-rules.ts on the tools as
// published. Whether a tool returns structured content is learnt from the recorded calls in the history, and with
// --probe from calling, once with no arguments, each tool annotated read-only that requires none.
import type { ToolDetail } from '../../shared/domains/catalog.js';
import type { Flags } from './args.js';
import type { CliCore } from './cli-core.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import { lintTools, type LintTool } from './lint/lint-rules.js';
import type { Output } from './output.js';
import { connectFor } from './tool-commands.js';

/** `lint`: exit 1 when any error was found (warnings alone pass). */
export async function lintCommand(core: CliCore, _words: string[], flags: Flags, out: Output): Promise<ExitCode> {
  const failures = await connectFor(core, flags.server);
  for (const f of failures) out.note(f.message);
  const page = await core.call('catalog.search', {
    query: '',
    ...(flags.server !== undefined ? { serverIds: [flags.server] } : {}),
    limit: 25_000,
    includeGroups: false,
  });
  const byServer = new Map<string, LintTool[]>();
  const recorded = await structuredInHistory(core);
  for (const summary of page.tools) {
    const d = await core.call('catalog.tool', { name: summary.name });
    const seen = recorded.has(key(d.serverId, d.originalName))
      ? 'history'
      : flags.probe && !d.outputSchema && (await probeReturnsStructured(core, d))
        ? 'probe'
        : undefined;
    const tool: LintTool = {
      name: d.name,
      originalName: d.originalName,
      description: d.fullDescription,
      inputSchema: d.inputSchema,
      ...(d.outputSchema ? { outputSchema: d.outputSchema } : {}),
      ...(seen ? { structuredSeen: seen } : {}),
    };
    byServer.set(d.serverId, [...(byServer.get(d.serverId) ?? []), tool]);
  }
  // Duplicates are per server: local names already tell two servers' tools apart.
  const findings = [...byServer.values()].flatMap((tools) => lintTools(tools));
  if (flags.json) for (const f of findings) out.json(f);
  else {
    for (const f of findings) out.line(`${f.severity.padEnd(7)} ${f.tool}  ${f.message}  [${f.rule}]`);
    const errors = findings.filter((f) => f.severity === 'error').length;
    out.line(`${page.tools.length} tools, ${errors} errors, ${findings.length - errors} warnings`);
  }
  if (findings.some((f) => f.severity === 'error')) return EXIT.assertionFailed;
  return failures[0]?.exitCode ?? EXIT.ok;
}

const key = (serverId: string, tool: string): string => `${serverId}\u0000${tool}`;

/** Most history entries looked at (newest first). */
const HISTORY_SCAN = 5000;

/** The tools whose recorded calls returned structured content. */
async function structuredInHistory(core: CliCore): Promise<Set<string>> {
  const seen = new Set<string>();
  for (let offset = 0; offset < HISTORY_SCAN; offset += 1000) {
    const page = await core.call('calls.history', { offset, limit: 1000 });
    for (const e of page.entries)
      if (e.status === 'ok' && (e.presentation.structured !== undefined || e.presentation.structuredTruncated === true))
        seen.add(key(e.serverId, e.originalName));
    if (offset + page.entries.length >= page.total || page.entries.length === 0) break;
  }
  return seen;
}

/** Whether a tool is safe to call blind: annotated read-only and requiring no argument. */
export function probeable(d: Pick<ToolDetail, 'annotations' | 'inputSchema'>): boolean {
  const required = d.inputSchema['required'];
  return d.annotations.readOnlyHint === true && (!Array.isArray(required) || required.length === 0);
}

/** Calls a probeable tool with `{}`; true when its result carried structured content. */
async function probeReturnsStructured(core: CliCore, d: ToolDetail): Promise<boolean> {
  if (!probeable(d)) return false;
  try {
    const outcome = await core.call('tools.call', { name: d.name, arguments: {} });
    return outcome.status === 'ok' && outcome.presentation.structured !== undefined;
  } catch {
    return false;
  }
}
