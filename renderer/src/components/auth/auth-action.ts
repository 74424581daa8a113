// The sign-in tab runs one action at a time: every form disables its buttons while any of them is busy.

/** The tab's shared busy flag and the runner that sets it around an action. */
export interface AuthAction {
  /** Whether an action is running. */
  busy: boolean;
  /** Runs an action with `busy` set. */
  act: (fn: () => Promise<unknown>) => Promise<void>;
}
