// What a core that had to be ended leaves behind, cleaned up by the shell: the server process groups it recorded
// (their record is current within a few milliseconds of each spawn) and the gateway's endpoint file.
import { removeEndpointSync } from '../core/gateway/endpoint-path.js';
import { ProcessRecord } from '../core/sessions/process-record.js';

/** Quick timings: this runs inside the shell's shutdown budget. */
const QUICK = { termGraceMs: 300, killWaitMs: 700 };

/** Ends the groups a killed core left and removes its endpoint file; returns how many groups were ended. */
export async function cleanUpAfterCore(dataDir: string, log: (message: string) => void): Promise<number> {
  try {
    removeEndpointSync(dataDir);
  } catch (err) {
    log(`the gateway's endpoint file could not be removed: ${err instanceof Error ? err.message : String(err)}`);
  }
  const record = new ProcessRecord(dataDir);
  if (record.load() === 0) return 0;
  const { ended, remaining } = await record.end(
    record.leftovers().map((l) => l.pgid),
    QUICK,
  );
  await record.flush();
  if (remaining.length > 0) log(`${remaining.length} server process group(s) of the core could not be ended`);
  return ended.length;
}
