// Contract types for the connection doctor's walk (servers.test): ordered steps, each passed or failed with evidence.

/** Steps of the walk for a Streamable HTTP or SSE server, in order. */
export type HttpStepId = 'url' | 'dns' | 'tcp' | 'tls' | 'http' | 'resource-metadata' | 'auth-metadata' | 'protocol' | 'authorization';

/** Steps of the walk for a stdio server, in order. */
export type StdioStepId = 'command' | 'executable' | 'spawn' | 'stdout' | 'handshake' | 'tools';

/** Outcome of one step. `skipped`: not run because an earlier step failed or it does not apply. */
export type DoctorStepStatus = 'passed' | 'failed' | 'warning' | 'skipped' | 'needs-approval';

/** One labelled fact a step found (all values are display text, bounded and sanitized). */
export interface DoctorEvidence {
  /** What the fact is (e.g. "Address", "Certificate subject"). */
  label: string;
  /** The fact. */
  value: string;
}

/** One step of the walk. */
export interface DoctorStep {
  /** Which step. */
  id: HttpStepId | StdioStepId;
  /** Plain-words name of the step. */
  title: string;
  /** Outcome. */
  status: DoctorStepStatus;
  /** One line on what happened. */
  summary: string;
  /** What was found. */
  evidence: DoctorEvidence[];
  /** What to do next, on the failing (or waiting) step. */
  advice?: string;
  /** How long the step took, in ms. */
  elapsedMs?: number;
}

/** The exact launch a stdio test run would spawn; the person approves this one trial run by sending its fingerprint back. */
export interface TrialLaunch {
  /** Program to run (as configured). */
  command: string;
  /** Arguments, exactly. */
  args: string[];
  /** Working directory, when set. */
  cwd?: string;
  /** Names of the environment variables passed (values never shown). */
  envKeys: string[];
  /** Fingerprint to send back as `approvedLaunch` to run it once. */
  fingerprint: string;
}

/** Result of a doctor walk. Nothing is saved. */
export interface DoctorWalk {
  /** Transport that was walked. */
  transport: 'stdio' | 'http' | 'sse';
  /** Every step in order. */
  steps: DoctorStep[];
  /** True when every step passed (warnings allowed). */
  ok: boolean;
  /** The first failed step, when one failed. */
  failedStep?: HttpStepId | StdioStepId;
  /** For stdio: the launch awaiting the person's approval for one trial run (the walk stopped before spawning). */
  trial?: TrialLaunch;
}
