// `switchboard resources read` and `switchboard prompts get`, through the same contract calls as the Resources view.
import type { Flags } from './args.js';
import { readArgs } from './args.js';
import { CliError } from './cli-error.js';
import type { CliCore } from './cli-core.js';
import { connectServer } from './connect.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import type { Output } from './output.js';

function needServer(flags: Flags, command: string): string {
  if (flags.server === undefined) throw CliError.usage(`${command} needs --server ID`);
  return flags.server;
}

/** `resources read URI --server ID [--json]`. */
export async function resourcesRead(core: CliCore, words: string[], flags: Flags, out: Output): Promise<ExitCode> {
  const uri = words[0];
  if (uri === undefined) throw CliError.usage('resources read needs a URI');
  const id = needServer(flags, 'resources read');
  await connectServer(core, id);
  const result = await core.call('resources.read', { id, uri });
  if (flags.json) out.json(result);
  else
    for (const part of result.parts) {
      if (part.text !== undefined) out.line(part.text);
      else
        out.note(
          `${part.uri}: ${part.kind}${part.mimeType ? ` (${part.mimeType})` : ''}${part.blobBytes !== undefined ? `, ${part.blobBytes} bytes` : ''}${part.notice ? ` — ${part.notice}` : ''}`,
        );
    }
  return EXIT.ok;
}

/** `prompts get NAME --args JSON --server ID [--json]`: prompt arguments are strings. */
export async function promptsGet(core: CliCore, words: string[], flags: Flags, out: Output): Promise<ExitCode> {
  const name = words[0];
  if (name === undefined) throw CliError.usage('prompts get needs a prompt NAME');
  const id = needServer(flags, 'prompts get');
  const raw = readArgs(flags.args);
  const args: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (typeof v !== 'string') throw CliError.usage(`Prompt argument ${k} must be a string`);
    args[k] = v;
  }
  await connectServer(core, id);
  const result = await core.call('prompts.get', { id, name, arguments: args });
  if (flags.json) out.json(result);
  else {
    if (result.description) out.note(result.description);
    for (const m of result.messages)
      out.line(`${m.role}: ${m.text ?? m.resource?.text ?? m.resource?.uri ?? m.notice ?? (m.image ? `[image ${m.image.mimeType}]` : '')}`);
  }
  return EXIT.ok;
}
