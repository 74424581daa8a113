// `switchboard lint [--server ID] [--json]`: the catalog checks of lint/lint-rules.ts on the tools as published.
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
  for (const summary of page.tools) {
    const d = await core.call('catalog.tool', { name: summary.name });
    const tool: LintTool = {
      name: d.name,
      originalName: d.originalName,
      description: d.fullDescription,
      inputSchema: d.inputSchema,
      ...(d.outputSchema ? { outputSchema: d.outputSchema } : {}),
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
