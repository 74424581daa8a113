// One way to stop a launched Switchboard and judge the stop, for both shells: ask it to quit, wait (sampling the
// processes it owns), kill it if it does not quit in time, then name every process it left running and kill those.
import { describeProcess, killAll, type ProcessInfo, type ProcessWatch } from './process-tree.js';

/** What a stop found. `problems` is empty when Switchboard quit by itself with code 0 and left nothing running. */
export interface StopReport {
  /** Exit code, when it exited. */
  exitCode: number | null;
  /** Signal that ended it, when one did. */
  signal: string | null;
  /** Processes it owned that were still running after it exited (they have been killed since). */
  leftovers: ProcessInfo[];
  /** Each problem in one sentence. */
  problems: string[];
}

/** How one app is stopped. */
export interface StopPlan {
  /** The app's main process id. */
  pid: number;
  /** The watch over the processes it owns. */
  watch: ProcessWatch;
  /** Whether it is still running. */
  running(): boolean;
  /** Resolves when it has exited. */
  exited: Promise<{ code: number | null; signal: string | null }>;
  /** Asks it to quit (SIGTERM, or the app's own quit). */
  requestStop(): void | Promise<void>;
  /** How long it may take to quit (ms). */
  timeoutMs: number;
  /** How long what it owned may take to finish dying after it exited (ms, default 3 s). */
  graceMs?: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Stops the app and reports what was wrong. */
export async function stopAndCheck(plan: StopPlan): Promise<StopReport> {
  const problems: string[] = [];
  plan.watch.sample();
  let result: { code: number | null; signal: string | null } | undefined;
  if (plan.running()) {
    await Promise.resolve(plan.requestStop()).catch(() => undefined);
    const deadline = Date.now() + plan.timeoutMs;
    while (result === undefined && Date.now() < deadline) {
      result = await Promise.race([plan.exited, sleep(100).then(() => undefined)]);
      if (result === undefined) plan.watch.sample();
    }
    if (result === undefined) {
      problems.push(`Switchboard did not quit within ${plan.timeoutMs / 1000} s of being asked to and was killed`);
      killAll(plan.watch.alive());
      result = await plan.exited;
    } else if (result.code !== 0) {
      problems.push(`Switchboard exited with ${result.code === null ? `signal ${result.signal}` : `code ${result.code}`} instead of 0`);
    }
  } else {
    result = await plan.exited;
    problems.push(
      `Switchboard had already exited (${result.code === null ? `signal ${result.signal}` : `code ${result.code}`}) before it was stopped`,
    );
  }
  // What it owned gets a moment to finish dying; whatever still runs then was left behind.
  const others = (): ProcessInfo[] => plan.watch.alive().filter((p) => p.pid !== plan.pid);
  let leftovers = others();
  const until = Date.now() + (plan.graceMs ?? 3000);
  while (leftovers.length > 0 && Date.now() < until) {
    await sleep(100);
    leftovers = others();
  }
  if (leftovers.length > 0) {
    problems.push(
      `${leftovers.length} process${leftovers.length === 1 ? '' : 'es'} started by Switchboard kept running after it quit (now killed): ${leftovers.map(describeProcess).join('; ')}`,
    );
    killAll(leftovers);
  }
  return { exitCode: result.code, signal: result.signal, leftovers, problems };
}
