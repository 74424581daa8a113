// One voice for failures of stores and background loops. Every such failure is reported here: it is logged (with
// the server's id when it has one), and the person hears of it as a notice when it affects them at once or keeps
// happening. Nothing a store or loop fails at is dropped on the floor.
import type { AppNotice } from '../../shared/contract.js';

/** One failure of a store or a background loop. */
export interface Problem {
  /** Stable id of what failed (e.g. `events-storage`, `gateway-endpoint-file`); also the notice's id. */
  id: string;
  /** What failed and what it means for the person, in plain words (never a secret). */
  message: string;
  /** The server it concerns, when it concerns one. */
  serverId?: string;
  /** How bad it is (default `warning`). */
  level?: 'warning' | 'error';
  /** The person is affected now (a lost secret, a dropped subscription): raise the notice on the first report. */
  notify?: boolean;
}

/** Where a problem goes; every store and loop receives one of these. */
export type ReportProblem = (problem: Problem) => void;

/** What a store or loop holds: report a failure, and say when it went away. */
export interface ProblemPort {
  readonly report: ReportProblem;
  resolved(id: string, serverId?: string): void;
}

/** Reports of the same problem after which it counts as persisting and gets a notice. */
export const PERSISTS_AFTER = 3;

/** What the reporter writes to. */
export interface ProblemSinks {
  /** The log file (the shell's logger; a no-op where there is none). */
  log(level: 'warn' | 'error', scope: string, text: string): void;
  /** The person's notices. */
  notify(notice: AppNotice): void;
}

/** Logs every problem and turns the ones that matter to the person into notices. */
export class ProblemReporter implements ProblemPort {
  readonly #sinks: ProblemSinks;
  readonly #counts = new Map<string, number>();

  constructor(sinks: ProblemSinks) {
    this.#sinks = sinks;
  }

  /** Reports one failure. Never throws: a broken sink must not turn one failure into two. */
  readonly report: ReportProblem = (problem) => {
    const key = problem.serverId === undefined ? problem.id : `${problem.id}:${problem.serverId}`;
    const count = (this.#counts.get(key) ?? 0) + 1;
    this.#counts.set(key, count);
    const level = problem.level ?? 'warning';
    try {
      this.#sinks.log(
        level === 'error' ? 'error' : 'warn',
        problem.serverId === undefined ? problem.id : `server ${problem.serverId}`,
        problem.message,
      );
    } catch {
      // The log itself failed: the notice below is the only voice left.
    }
    if (problem.notify === true || count === PERSISTS_AFTER) {
      try {
        this.#sinks.notify({ id: key, level, message: problem.message });
      } catch {
        // Nothing further to tell: the log line above holds it.
      }
    }
  };

  /** The problem went away (a later write succeeded): the next failure starts counting again. */
  resolved(id: string, serverId?: string): void {
    this.#counts.delete(serverId === undefined ? id : `${id}:${serverId}`);
  }
}
