// Noticing that a server's skills changed, for whoever serves them on (the gateway's clients): a listing whose set of
// (uri, manifest, frontmatter) differs from the previous one, and the `notifications/skills/list_changed` a server of
// the earlier skills drafts may send (the final extension defines none; its skills are resources, so a change also
// shows as resources/list_changed). A notification only asks for a listing; the listing decides whether anything
// changed, and a burst of notifications costs at most one listing in flight plus one after it.
import { createHash } from 'node:crypto';
import type { AdmittedSkill } from './skill-entry.js';

/** The upstream notification some skills servers send (earlier drafts of the extension). */
export const SKILLS_LIST_CHANGED = 'notifications/skills/list_changed';

/** What identifies a listing's content: every skill's uri, manifest fingerprint (or dynamic) and frontmatter. */
export function listingSignature(skills: readonly AdmittedSkill[]): string {
  const h = createHash('sha256');
  for (const s of [...skills].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0)))
    h.update(`${s.uri}\u0000${s.fingerprint ?? 'dynamic'}\u0000${JSON.stringify(s.frontmatter)}\u0001`);
  return h.digest('hex');
}

/** Per-server listing signatures, change listeners, and coalesced re-listing on a notification. */
export class SkillChanges {
  readonly #signatures = new Map<string, string>();
  readonly #listeners = new Set<(id: string) => void>();
  readonly #relisting = new Map<string, { again: boolean }>();
  readonly #relist: (id: string) => Promise<unknown>;

  /** `relist` lists the server again (its result goes through `listed`). */
  constructor(relist: (id: string) => Promise<unknown>) {
    this.#relist = relist;
  }

  /** Calls `fn(serverId)` whenever a server's skills changed; returns the unsubscribe. */
  onChanged(fn: (id: string) => void): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  /** A fresh listing of a server: tells the listeners when it differs from the previous one. */
  listed(id: string, skills: readonly AdmittedSkill[]): void {
    const next = listingSignature(skills);
    const before = this.#signatures.get(id);
    this.#signatures.set(id, next);
    if (before !== undefined && before !== next) this.changed(id);
  }

  /** What is served of a server changed (an approval, say): the listeners are told. */
  changed(id: string): void {
    for (const fn of this.#listeners) {
      try {
        fn(id);
      } catch {
        // A listener's failure is its own; the others are still told.
      }
    }
  }

  /** The server said its skills changed: list again (one in flight per server, one more after it at most). */
  notified(id: string): void {
    const running = this.#relisting.get(id);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: false };
    this.#relisting.set(id, state);
    const run = (): void => {
      void this.#relist(id)
        .catch(() => undefined)
        .finally(() => {
          if (state.again) {
            state.again = false;
            run();
          } else this.#relisting.delete(id);
        });
    };
    run();
  }

  /** A server was removed: its signature is forgotten. */
  forget(id: string): void {
    this.#signatures.delete(id);
  }
}
