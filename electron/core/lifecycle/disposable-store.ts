// One owner's lifetimes: each service adds its shutdown steps as it is built, so shutdown order follows construction
// order instead of a hand-kept list (after VS Code's DisposableStore, with the stages and bounds shutdown needs).
import { boundedStep, HOOK_TIMEOUT_MS, stepBudget, type ShutdownHook, type ShutdownStage, type ShutdownStep } from './shutdown.js';

/** The steps one owner registered, run by stage. */
export class DisposableStore {
  readonly #hooks: ShutdownHook[] = [];

  /** Adds a step; returns the function that removes it. */
  add(hook: ShutdownHook): () => void {
    this.#hooks.push(hook);
    return () => {
      const at = this.#hooks.indexOf(hook);
      if (at >= 0) this.#hooks.splice(at, 1);
    };
  }

  /**
   * Runs the stage's steps, each bounded by its timeout and the deadline. Writes (`flush`) start in construction order
   * and run side by side (each writes its own file, so one slow write cannot take the others' time); every other stage
   * runs one step after another in the reverse of construction order, so what was built on something stops before it.
   */
  async run(stage: ShutdownStage, deadline: number): Promise<ShutdownStep[]> {
    const hooks = this.#hooks.filter((h) => (h.stage ?? 'flush') === stage);
    const runOne = (hook: ShutdownHook): Promise<ShutdownStep> => {
      const own = hook.leaveMs !== undefined ? Math.max(0, deadline - Date.now() - hook.leaveMs) : (hook.timeoutMs ?? HOOK_TIMEOUT_MS);
      return boundedStep(hook.name, (signal) => hook.run(signal), stepBudget(stage, own, deadline));
    };
    if (stage === 'flush') return Promise.all(hooks.map(runOne));
    const steps: ShutdownStep[] = [];
    for (const hook of hooks.reverse()) steps.push(await runOne(hook));
    return steps;
  }
}
