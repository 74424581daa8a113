// What one progressive session has selected: the tools added to its tool list by tools_select, bounded by the
// accumulated discovery budget (128 definitions, 256 KiB). A 2025-11-25 HTTP session has its own scope; the
// stateless 2026-07-28 requests of one client share the client's scope (there is no session to key them by).

/** Definitions a session may accumulate. */
export const SESSION_MAX_DEFINITIONS = 128;
/** Bytes of definitions a session may accumulate. */
export const SESSION_MAX_BYTES = 256 * 1024;

/** Outcome of adding tools to a scope. */
export interface AddOutcome {
  /** Newly added names. */
  added: string[];
  /** Names that did not fit the session budget. */
  refused: string[];
}

/** The selected tools of one session. */
export class SessionScope {
  readonly #selected = new Map<string, number>();
  #bytes = 0;
  /** Called when the selection changed (the session's clients get tools/list_changed). */
  onChange: (() => void) | undefined;

  /** Selected names in selection order. */
  names(): string[] {
    return [...this.#selected.keys()];
  }

  /** Whether a name is selected. */
  has(name: string): boolean {
    return this.#selected.has(name);
  }

  /** Definitions and bytes accumulated so far. */
  usage(): { definitions: number; bytes: number } {
    return { definitions: this.#selected.size, bytes: this.#bytes };
  }

  /** Adds definitions in order while the budget allows; already selected names are kept as they are. */
  add(tools: { name: string; bytes: number }[]): AddOutcome {
    const added: string[] = [];
    const refused: string[] = [];
    for (const t of tools) {
      if (this.#selected.has(t.name)) continue;
      if (this.#selected.size + 1 > SESSION_MAX_DEFINITIONS || this.#bytes + t.bytes > SESSION_MAX_BYTES) {
        refused.push(t.name);
        continue;
      }
      this.#selected.set(t.name, t.bytes);
      this.#bytes += t.bytes;
      added.push(t.name);
    }
    if (added.length > 0) this.onChange?.();
    return { added, refused };
  }

  /** Drops every selection (tools_select with `clear`); `notify` false leaves announcing it to a following add. */
  clear(notify = true): boolean {
    if (this.#selected.size === 0) return false;
    this.#selected.clear();
    this.#bytes = 0;
    if (notify) this.onChange?.();
    return true;
  }
}
