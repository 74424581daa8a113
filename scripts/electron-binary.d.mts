// Types for scripts/electron-binary.mjs (used by scripts/start-electron.mjs and its test).

/** File system reads the plan makes (tests replace them). */
export interface PlanFs {
  exists?: (path: string) => boolean;
  read?: (path: string, encoding: 'utf8') => string;
}

/** What `npm start` does about Electron. */
export type StartPlan =
  | { kind: 'run'; bin: string }
  | { kind: 'fetch'; installer: string; command: string; message: string }
  | { kind: 'cannot'; message: string };

export function executableName(platform?: string): string;
export function electronBinary(
  opts: { pkgDir: string; env?: Record<string, string | undefined>; platform?: string } & PlanFs,
): string | null;
export function startPlan(
  opts: { root: string; pkgDir: string; env?: Record<string, string | undefined>; platform?: string } & PlanFs,
): StartPlan;
export function fetchFailedMessage(plan: Extract<StartPlan, { kind: 'fetch' }>, status: number | null): string;
