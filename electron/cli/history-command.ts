// `switchboard history export [CALL_ID…] [--saved] [--name NAME] [--out FILE]`: calls from the History as a
// collection `switchboard run` runs (calls.exportCollection, the same export the app offers). Without ids it
// exports the saved calls.
import { writeFileSync } from 'node:fs';
import type { Flags } from './args.js';
import { CliError } from './cli-error.js';
import type { CliCore } from './cli-core.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import type { Output } from './output.js';

/** Most saved calls one export takes (the contract's bound). */
const MAX_CALLS = 200;

/** `history export`: writes the collection to --out, or prints it. */
export async function historyExport(core: CliCore, words: string[], flags: Flags, out: Output): Promise<ExitCode> {
  if (words[0] !== 'export') throw CliError.usage('Usage: switchboard history export [CALL_ID…] [--name NAME] [--out FILE]');
  let callIds = words.slice(1);
  if (callIds.length === 0) {
    const saved = await core.call('calls.history', { savedOnly: true, limit: MAX_CALLS });
    // The history is newest first; a suite reads best in the order the calls were made.
    callIds = saved.entries.map((e) => e.callId).reverse();
    if (callIds.length === 0) throw CliError.usage('There are no saved calls to export; give call ids, or save calls first');
  }
  const exported = await core.call('calls.exportCollection', { callIds, ...(flags.name !== undefined ? { name: flags.name } : {}) });
  if (flags.out !== undefined) {
    try {
      writeFileSync(flags.out, exported.text, { mode: 0o600 });
    } catch (err) {
      throw CliError.usage(`Cannot write --out ${flags.out}: ${(err as Error).message}`);
    }
    out.note(`Wrote ${callIds.length} call(s) to ${flags.out}`);
    // Escaped for the terminal: an escaped bidi or control character is still a valid JSON escape.
  } else out.line(exported.text.trimEnd());
  return EXIT.ok;
}
