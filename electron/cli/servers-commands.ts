// `switchboard servers list|add|import|approve|test`: the Servers view's actions, through the same contract calls.
import { readFileSync } from 'node:fs';
import type { ServerConfigInput } from '../../shared/config.js';
import type { DoctorWalk } from '../../shared/domains/doctor.js';
import { slugId } from '../core/import/import-service.js';
import { splitCommandLine } from '../../renderer/src/lib/command-line.js';
import type { Flags } from './args.js';
import { CliError } from './cli-error.js';
import { describeLaunch, type CliCore } from './cli-core.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import type { Output } from './output.js';

/** `servers list [--json]`. */
export async function serversList(core: CliCore, flags: Flags, out: Output): Promise<ExitCode> {
  const servers = await core.call('servers.list', {});
  if (flags.json) out.json(servers);
  else if (servers.length === 0) out.note('No servers. Add one with: switchboard servers add COMMAND|URL');
  else
    for (const s of servers)
      out.row([
        s.id,
        s.transport,
        `${s.enabled ? s.status.state : 'disabled'}${s.needsApproval ? ' (launch not approved)' : ''}`,
        s.target,
      ]);
  return EXIT.ok;
}

/** The definition a pasted command line or URL stands for (the Add dialog's paste, without a dialog). */
export function definitionFromPaste(words: string[], flags: Pick<Flags, 'name' | 'id'>): ServerConfigInput {
  const pasted = words.length === 1 ? words[0]! : words.join(' ');
  if (/^https?:\/\//i.test(pasted.trim())) {
    const url = new URL(pasted.trim());
    const id = flags.id ?? slugId(url.hostname);
    return { id, name: flags.name ?? url.hostname, transport: { type: 'http', url: url.href, headers: {}, allowInsecureHttp: false } };
  }
  // Several words are already split by the shell; one word is a pasted command line to split like a shell would.
  const split = words.length === 1 ? splitCommandLine(pasted) : { command: words[0]!, args: words.slice(1), shellOperators: [] };
  if (split === null) throw CliError.usage('The command line has an open quote, or is empty');
  if (split.shellOperators.length > 0)
    throw CliError.usage(`Switchboard starts programs without a shell; remove ${split.shellOperators.join(' ')} from the command line`);
  const base = split.command.split(/[\\/]/).pop() ?? split.command;
  const id =
    flags.id ?? slugId(base === 'npx' || base === 'node' || base === 'uvx' ? (split.args.find((a) => !a.startsWith('-')) ?? base) : base);
  return {
    id,
    name: flags.name ?? id,
    transport: { type: 'stdio', command: split.command, args: split.args, env: {}, inheritEnv: false },
  };
}

/** `servers add [--id ID] [--name NAME] COMMAND…|URL`. */
export async function serversAdd(core: CliCore, words: string[], flags: Flags, out: Output): Promise<ExitCode> {
  if (words.length === 0) throw CliError.usage('servers add needs a command line or a URL');
  const detail = await core.call('servers.add', { config: definitionFromPaste(words, flags) });
  if (flags.json) out.json(detail);
  else {
    out.line(`Added ${detail.id} (${detail.transport}): ${detail.target}`);
    if (detail.needsApproval) out.note(`Its launch needs approval before it runs: switchboard servers approve ${detail.id}`);
  }
  return EXIT.ok;
}

/** `servers import FILE`: an mcp.json / Claude / Cursor / VS Code file. */
export async function serversImport(core: CliCore, words: string[], flags: Flags, out: Output): Promise<ExitCode> {
  const file = words[0];
  if (file === undefined) throw CliError.usage('servers import needs a FILE');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw CliError.usage(`Cannot read ${file}: ${(err as Error).message}`);
  }
  const result = await core.call('servers.import', { text });
  if (flags.json) out.json(result);
  else {
    for (const id of result.added) out.line(`Added ${id}`);
    for (const s of result.skipped) out.note(`Skipped ${s.key}: ${s.reason}`);
  }
  return result.added.length === 0 && result.skipped.length > 0 ? EXIT.usage : EXIT.ok;
}

/** `servers approve ID [--yes]`: prints the exact launch, then approves it (asking when on a terminal). */
export async function serversApprove(
  core: CliCore,
  words: string[],
  flags: Flags,
  out: Output,
  confirm: (question: string) => Promise<boolean> | undefined,
): Promise<ExitCode> {
  const id = words[0];
  if (id === undefined) throw CliError.usage('servers approve needs a server ID');
  const detail = await core.call('servers.get', { id });
  const approval = detail.approval;
  if (!approval) throw CliError.usage(`${id} is not a stdio server: it has no launch to approve`);
  out.note(`Launch of ${id}: ${describeLaunch(approval)}`);
  for (const change of approval.changes) out.note(`  changed since the last approval: ${change.summary}`);
  for (const warning of approval.warnings) out.note(`  warning: ${warning.text}`);
  if (!approval.required) {
    out.note('This launch is already approved.');
    return EXIT.ok;
  }
  if (!flags.yes) {
    const asked = confirm('Approve this exact launch? [y/N] ');
    if (asked === undefined) throw CliError.usage('No terminal to ask on: pass --yes to approve the launch printed above');
    if (!(await asked)) {
      out.note('Not approved.');
      return EXIT.usage;
    }
  }
  await core.call('servers.approve', { id, fingerprint: approval.fingerprint });
  out.note(`Approved the launch of ${id}.`);
  return EXIT.ok;
}

/** `servers test ID`: the connection doctor's walk, one line per step; the exit code is the failing step's class. */
export async function serversTest(core: CliCore, words: string[], flags: Flags, out: Output): Promise<ExitCode> {
  const id = words[0];
  if (id === undefined) throw CliError.usage('servers test needs a server ID');
  let walk = await core.call('servers.test', { id });
  if (walk.trial && flags.yes) {
    out.note(`Running the launch once for the test (--yes): ${[walk.trial.command, ...walk.trial.args].join(' ')}`);
    walk = await core.call('servers.test', { id, approvedLaunch: walk.trial.fingerprint });
  }
  if (flags.json) out.json(walk);
  else
    for (const step of walk.steps) {
      out.line(`${step.status.padEnd(14)} ${step.title}: ${step.summary}`);
      if (step.advice && step.status !== 'passed') out.line(`${''.padEnd(15)}${step.advice}`);
    }
  return walkExit(walk);
}

/** A walk's exit code: 0 when it passed, else by where it stopped. */
export function walkExit(walk: DoctorWalk): ExitCode {
  if (walk.ok) return EXIT.ok;
  if (walk.failedStep === 'authorization' || walk.steps.some((s) => s.id === 'authorization' && s.status === 'failed'))
    return EXIT.authorization;
  return EXIT.connection;
}
