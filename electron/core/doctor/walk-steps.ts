// The step recorder of a doctor walk: steps run in order, each ends passed, failed or with a warning, carries its
// evidence (bounded, sanitized display text) and, when it fails, what to do next. Once a step fails, the steps that
// depend on it are recorded as skipped instead of run.
import type {
  DoctorEvidence,
  DoctorStep,
  DoctorStepStatus,
  DoctorWalk,
  HttpStepId,
  StdioStepId,
  TrialLaunch,
} from '../../../shared/domains/doctor.js';
import type { Established } from '../sessions/lifecycle.js';
import { sanitizeText, truncate } from '../text.js';

/** Most evidence lines a step keeps. */
const MAX_EVIDENCE = 30;

/** What a step found. */
export interface StepOutcome {
  /** Outcome (passed unless said; skipped when it turned out it could not run). */
  status?: DoctorStepStatus;
  /** One line on what happened. */
  summary: string;
  /** Facts found. */
  evidence?: [string, string | number | undefined][];
  /** What to do next (failed or waiting steps). */
  advice?: string;
  /** How long the step really took, when it was measured inside another operation. */
  elapsedMs?: number;
}

/** The passed protocol step of a finished handshake: the revision, how it was reached, and who answered. */
export function negotiatedOutcome(established: Established): StepOutcome {
  const identity = established.client.getServerVersion();
  return {
    summary: `Negotiated ${established.protocolVersion} (${established.lifecycle === 'discover' ? 'server/discover' : 'initialize'})`,
    evidence: [
      ['Protocol version', established.protocolVersion],
      ['Lifecycle', established.lifecycle],
      ['Server', identity !== undefined ? `${identity.name} ${identity.version}` : undefined],
    ],
  };
}

/** Display text of a fact: control characters removed, bounded. */
export function fact(value: string | number, max = 500): string {
  return truncate(sanitizeText(String(value)), max);
}

function evidenceOf(pairs: [string, string | number | undefined][] = []): DoctorEvidence[] {
  return pairs
    .filter((p): p is [string, string | number] => p[1] !== undefined && p[1] !== '')
    .slice(0, MAX_EVIDENCE)
    .map(([label, value]) => ({ label: fact(label, 80), value: fact(value, 2000) }));
}

/** Records one walk. */
export class WalkRecorder<Id extends HttpStepId | StdioStepId> {
  readonly #steps: DoctorStep[] = [];
  readonly #transport: DoctorWalk['transport'];
  readonly #now: () => number;
  #blocked: string | undefined;
  #trial: TrialLaunch | undefined;

  constructor(transport: DoctorWalk['transport'], now: () => number = Date.now) {
    this.#transport = transport;
    this.#now = now;
  }

  /** Whether a failed (or waiting) step stops the steps after it. */
  get blocked(): boolean {
    return this.#blocked !== undefined;
  }

  /** Runs one step unless an earlier one blocked the walk; a thrown error fails the step with its message. */
  async step(id: Id, title: string, run: () => Promise<StepOutcome>, opts: { blocks?: boolean } = {}): Promise<StepOutcome | undefined> {
    if (this.#blocked !== undefined) {
      this.skip(id, title, this.#blocked);
      return undefined;
    }
    const started = this.#now();
    let outcome: StepOutcome;
    try {
      outcome = await run();
    } catch (err) {
      outcome = { status: 'failed', summary: err instanceof Error ? err.message : 'The step failed' };
    }
    const status = outcome.status ?? 'passed';
    this.#steps.push({
      id,
      title,
      status,
      summary: fact(outcome.summary, 1000),
      evidence: evidenceOf(outcome.evidence),
      ...(outcome.advice !== undefined ? { advice: fact(outcome.advice, 1000) } : {}),
      elapsedMs: outcome.elapsedMs ?? this.#now() - started,
    });
    if ((status === 'failed' && opts.blocks !== false) || status === 'needs-approval') {
      this.#blocked = status === 'needs-approval' ? 'Waits for the trial run to be approved' : `Not run: "${title}" failed`;
    }
    return outcome;
  }

  /** Records a step that does not apply (or cannot run) with the reason. */
  skip(id: Id, title: string, summary: string): void {
    this.#steps.push({ id, title, status: 'skipped', summary: fact(summary, 500), evidence: [] });
  }

  /** Stops the walk here: the remaining steps are recorded as skipped with this reason. */
  block(reason: string): void {
    this.#blocked ??= reason;
  }

  /** Notes the launch awaiting approval. */
  setTrial(trial: TrialLaunch): void {
    this.#trial = trial;
  }

  /** The walk's result. */
  result(): DoctorWalk {
    const failed = this.#steps.find((s) => s.status === 'failed');
    return {
      transport: this.#transport,
      steps: this.#steps,
      ok: failed === undefined && this.#steps.every((s) => s.status !== 'needs-approval'),
      ...(failed !== undefined ? { failedStep: failed.id } : {}),
      ...(this.#trial !== undefined ? { trial: this.#trial } : {}),
    };
  }
}
